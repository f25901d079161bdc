package relay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/watch"
)

// loginWait bounds how long a login started from the console waits for
// the person to finish it in the browser; its loopback listener closes
// then.
const loginWait = 10 * time.Minute

// ErrNoLogin is a login of a service that has no oauth block, or of a hub
// that keeps no logins.
var ErrNoLogin = errors.New("no login to make")

// Logins are the hub's side of the logins `chronicle auth login` and the
// console make (engine/oauth, decisions 0222 and 0223): which OAuth
// services need one, the console's logins waiting for their redirect, and
// the services started again when a login appears.
type Logins struct {
	Store     *oauth.Store // ~/.chronicle/oauth; nil for a hub that keeps none
	Pool      *Upstreams
	Life      *Lifetime
	Inspector *inspect.Inspector
	// Invalidate lists the services named again (the hub's lister).
	Invalidate func(why string, services ...string)

	mu      sync.Mutex
	pending map[string]*pendingLogin // one per service, the newer replacing the older
}

// A pendingLogin is one login of the console waiting for its redirect.
type pendingLogin struct{ cancel context.CancelFunc }

// Why returns why a service with an oauth block cannot be reached for
// want of a login, "" when that is not so.
func (l *Logins) Why(service string) string {
	u := l.Pool.Shared.Get(service)
	if u == nil {
		return ""
	}
	if st := u.Status(); st.Login == oauth.LoginRequired {
		return st.LoginWhy
	}
	return ""
}

// Start starts the login of service as `chronicle auth login SERVICE`
// does (engine/oauth's Login, with its own loopback listener for the
// redirect) and returns the authorization URL for the person's browser
// once the login has it. The login goes on in the background: when the
// authorization server redirects to the loopback listener, the record is
// written and the service starts again (Changed), as a login of the CLI
// reaches a running hub. A second Start of the same service ends the
// first one's wait.
func (l *Logins) Start(ctx context.Context, name string) (string, error) {
	u := l.Pool.Shared.Get(name)
	if u == nil || l.Store == nil {
		return "", fmt.Errorf("%w: %s", ErrNoLogin, name)
	}
	svc, err := u.LoginService()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoLogin, err)
	}

	lctx, cancel := context.WithTimeout(l.Life.Context(), loginWait)
	p := &pendingLogin{cancel: cancel}
	l.mu.Lock()
	if prev := l.pending[name]; prev != nil {
		prev.cancel() // its listener closes: a fixed callback port is free again
	}
	if l.pending == nil {
		l.pending = map[string]*pendingLogin{}
	}
	l.pending[name] = p
	l.mu.Unlock()

	urls := make(chan string, 1)
	failed := make(chan error, 1)
	l.Life.Go(func() {
		defer l.end(name, p)
		login := &oauth.Login{Store: l.Store, Service: svc, Open: func(authURL string) error {
			urls <- authURL
			return nil
		}}
		if _, err := login.Run(lctx); err != nil {
			failed <- err
			if !errors.Is(lctx.Err(), context.Canceled) {
				l.Inspector.Note("", "the console's login of "+name+" failed: "+err.Error())
			}
			return
		}
		l.Inspector.Note("", "logged in to "+name+" from the console")
		l.Changed()
	})
	select {
	case authURL := <-urls:
		return l.started(name, authURL), nil
	case err := <-failed:
		return "", err
	case <-ctx.Done():
		cancel()
		return "", ctx.Err()
	case <-lctx.Done():
		// The login ended (its own failure, sent just before) or the
		// hub is closing (its lifetime ran no login).
		select {
		case authURL := <-urls:
			return l.started(name, authURL), nil
		case err := <-failed:
			return "", err
		default:
			return "", lctx.Err()
		}
	}
}

// started notes a login the console started and returns its URL.
func (l *Logins) started(name, authURL string) string {
	l.Inspector.Note("", "login of "+name+" started from the console")
	return authURL
}

// end forgets a finished login of the console, unless a newer one
// replaced it.
func (l *Logins) end(name string, p *pendingLogin) {
	p.cancel()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending[name] == p {
		delete(l.pending, name)
	}
}

// Changed starts again the OAuth services that failed, most likely for
// want of the login just made, and lists them again, so that every client
// is told of their tools with list_changed.
func (l *Logins) Changed() {
	if names := l.Pool.RetryLogins(); len(names) > 0 {
		l.Invalidate("a login changed: starting "+strings.Join(names, ", ")+" again", names...)
	}
}

// Watch follows the logins `chronicle auth login` writes to
// ~/.chronicle/oauth, until ctx ends: when one appears or changes, the
// services with an oauth block that failed (for want of a login, most
// likely) start again at once, and their lists are read again (Changed).
// It returns nil at once when the hub keeps no logins.
func (l *Logins) Watch(ctx context.Context) error {
	if l.Store == nil {
		return nil
	}
	return watch.Folder(ctx, l.Store.Dir, ".json", l.Changed)
}
