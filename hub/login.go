package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/hub/console"
)

// loginWait bounds how long a login started from the console waits for
// the person to finish it in the browser; its loopback listener closes
// then.
const loginWait = 10 * time.Minute

// consoleLogins are the logins started from the console and not finished:
// one per service, the newer replacing the older.
type consoleLogins struct {
	mu      sync.Mutex
	pending map[string]*pendingLogin
}

// A pendingLogin is one login of the console waiting for its redirect.
type pendingLogin struct{ cancel context.CancelFunc }

// needsLogin returns why a service with an oauth block cannot be reached
// for want of a login, "" when that is not so.
func (h *Hub) needsLogin(service string) string {
	u := h.pool.Shared.Get(service)
	if u == nil {
		return ""
	}
	if st := u.Status(); st.Login == oauth.LoginRequired {
		return st.LoginWhy
	}
	return ""
}

// Login starts the login of service as `chronicle auth login SERVICE`
// does (engine/oauth's Login, with its own loopback listener for the
// redirect) and returns the authorization URL for the person's browser
// once the login has it. The login goes on in the background: when the
// authorization server redirects to the loopback listener, the record is
// written and the service starts again (loginsChanged), as a login of the
// CLI reaches a running hub. A second Login of the same service ends the
// first one's wait.
func (h *Hub) Login(ctx context.Context, name string) (console.LoginStart, error) {
	if h.settings().Backend(name) == nil {
		return console.LoginStart{}, fmt.Errorf("%w %s is offered", console.ErrNoService, name)
	}
	u := h.pool.Shared.Get(name)
	if u == nil || h.logins == nil {
		return console.LoginStart{}, fmt.Errorf("%w: %s", console.ErrNoLogin, name)
	}
	svc, err := u.LoginService()
	if err != nil {
		return console.LoginStart{}, fmt.Errorf("%w: %v", console.ErrNoLogin, err)
	}

	lctx, cancel := context.WithTimeout(h.life.Context(), loginWait)
	p := &pendingLogin{cancel: cancel}
	h.consoleLogins.mu.Lock()
	if prev := h.consoleLogins.pending[name]; prev != nil {
		prev.cancel() // its listener closes: a fixed callback port is free again
	}
	if h.consoleLogins.pending == nil {
		h.consoleLogins.pending = map[string]*pendingLogin{}
	}
	h.consoleLogins.pending[name] = p
	h.consoleLogins.mu.Unlock()

	urls := make(chan string, 1)
	failed := make(chan error, 1)
	h.life.Go(func() {
		defer h.endConsoleLogin(name, p)
		login := &oauth.Login{Store: h.logins, Service: svc, Open: func(authURL string) error {
			urls <- authURL
			return nil
		}}
		if _, err := login.Run(lctx); err != nil {
			failed <- err
			if !errors.Is(lctx.Err(), context.Canceled) {
				h.inspector.Note("", "the console's login of "+name+" failed: "+err.Error())
			}
			return
		}
		h.inspector.Note("", "logged in to "+name+" from the console")
		h.loginsChanged()
	})
	select {
	case authURL := <-urls:
		return h.loginStarted(name, authURL)
	case err := <-failed:
		return console.LoginStart{}, err
	case <-ctx.Done():
		cancel()
		return console.LoginStart{}, ctx.Err()
	case <-lctx.Done():
		// The login ended (its own failure, sent just before) or the
		// hub is closing (its lifetime ran no login).
		select {
		case authURL := <-urls:
			return h.loginStarted(name, authURL)
		case err := <-failed:
			return console.LoginStart{}, err
		default:
			return console.LoginStart{}, lctx.Err()
		}
	}
}

// loginStarted notes a login the console started and answers its URL.
func (h *Hub) loginStarted(name, authURL string) (console.LoginStart, error) {
	h.inspector.Note("", "login of "+name+" started from the console")
	return console.LoginStart{Service: name, AuthorizationURL: authURL}, nil
}

// endConsoleLogin forgets a finished login of the console, unless a newer
// one replaced it.
func (h *Hub) endConsoleLogin(name string, p *pendingLogin) {
	p.cancel()
	h.consoleLogins.mu.Lock()
	defer h.consoleLogins.mu.Unlock()
	if h.consoleLogins.pending[name] == p {
		delete(h.consoleLogins.pending, name)
	}
}

// loginsChanged starts again the OAuth services that failed, most likely
// for want of the login just made, and lists them again, so that every
// client is told of their tools with list_changed.
func (h *Hub) loginsChanged() {
	if names := h.pool.RetryLogins(); len(names) > 0 {
		h.lister.Invalidate("a login changed: starting "+strings.Join(names, ", ")+" again", names...)
	}
}
