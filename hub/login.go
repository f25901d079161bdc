package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/relay"
)

// Login starts the login of service from the console as `chronicle auth
// login SERVICE` does and returns the authorization URL for the person's
// browser once the login has it (relay.Logins.Start): the login goes on in
// the background, and the service starts again when it is made.
func (h *Hub) Login(ctx context.Context, name string) (console.LoginStart, error) {
	if h.settings().Backend(name) == nil {
		return console.LoginStart{}, fmt.Errorf("%w %s is offered", console.ErrNoService, name)
	}
	authURL, err := h.logins.Start(ctx, name)
	switch {
	case errors.Is(err, relay.ErrNoLogin):
		return console.LoginStart{}, fmt.Errorf("%w: %s", console.ErrNoLogin, strings.TrimPrefix(err.Error(), relay.ErrNoLogin.Error()+": "))
	case err != nil:
		return console.LoginStart{}, err
	}
	return console.LoginStart{Service: name, AuthorizationURL: authURL}, nil
}
