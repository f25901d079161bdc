package upstream

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/hub/upstream/resolve"
)

// A LoginRequired is why an upstream with an oauth block cannot be
// reached: it holds no usable login. Its text names the command that logs
// it in, which the hub's stand-in tells a client calling one of its tools.
type LoginRequired struct {
	Service string
	Why     string // no login yet, a refused refresh token, …
}

func (e *LoginRequired) Error() string {
	return fmt.Sprintf("login required (%s): run chronicle auth login %s", e.Why, e.Service)
}

// Unwrap makes a LoginRequired an oauth.ErrLoginRequired.
func (e *LoginRequired) Unwrap() error { return oauth.ErrLoginRequired }

// oauthConfig returns mcp-go's OAuth configuration for an upstream whose
// service has an oauth block, with the login `chronicle auth login` left
// in the pool's store as its TokenStore; nil for a service without one or
// a pool without a store. A service that holds no usable login does not
// start: its error (a LoginRequired) says which command logs it in.
func (u *Upstream) oauthConfig(rs *resolve.Resolution, url string) (*transport.OAuthConfig, *oauth.Tokens, error) {
	if u.spec.OAuth == nil || u.opts.OAuth == nil {
		return nil, nil, nil
	}
	svc, err := u.oauthService(rs, url)
	if err != nil {
		return nil, nil, err
	}
	st, err := u.opts.OAuth.Status(svc.Name, url)
	if err != nil {
		return nil, nil, err
	}
	if st.Status != oauth.LoggedIn {
		return nil, nil, &LoginRequired{Service: svc.Name, Why: st.Why}
	}
	rec, err := u.opts.OAuth.Find(url)
	if err != nil || rec == nil {
		return nil, nil, &LoginRequired{Service: svc.Name, Why: "no login yet"}
	}
	cfg, tokens := u.opts.OAuth.Config(svc, rec, nil)
	return &cfg, tokens, nil
}

// oauthService returns the service as engine/oauth needs it, its client
// secret resolved.
func (u *Upstream) oauthService(rs *resolve.Resolution, url string) (oauth.Resource, error) {
	svc := oauth.Resource{Name: u.spec.Name, URL: url, OAuth: *u.spec.OAuth}
	if !u.spec.OAuth.ClientSecret.IsZero() {
		s, err := rs.Value(u.spec.OAuth.ClientSecret)
		if err != nil {
			return svc, err
		}
		svc.ClientSecret = s
	}
	return svc, nil
}

// LoginService returns the service as `chronicle auth login` logs it in
// (its URL and client secret resolved), for the console's Log in button;
// an error for a service without an oauth block.
func (u *Upstream) LoginService() (oauth.Resource, error) {
	if u.spec.OAuth == nil {
		return oauth.Resource{}, fmt.Errorf("%s has no oauth block", u.spec.Name)
	}
	rs := &resolve.Resolution{Resolver: u.opts.Resolver, Masker: u.opts.Masker}
	rs.LiteralSecrets(u.spec.Definition)
	url, err := rs.URL(u.spec.URL)
	if err != nil {
		return oauth.Resource{}, err
	}
	return u.oauthService(rs, url)
}

// stepUpClient is the HTTP client of an OAuth upstream's transport: a 403
// insufficient_scope asks for the wider scope once (oauth.Tokens.StepUp,
// decision 0224) instead of reaching mcp-go, which drops its challenge.
func stepUpClient(tokens *oauth.Tokens) *http.Client {
	return &http.Client{Transport: tokens.StepUp(nil)}
}

// loginError notes a request's outcome (err nil: it was answered) for the
// status and returns err, or for an OAuth upstream whose token is refused
// or no longer handed out, a LoginRequired naming the command.
func (u *Upstream) loginError(err error) error {
	if u.spec.OAuth == nil {
		return err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.noteLoginLocked(err)
	var se *oauth.ScopeError
	switch {
	case errors.As(err, &se) && se.Asked:
		return se // without mcp-go's and net/http's wrapping around it
	case err != nil && u.needsLogin != "" && (se != nil || errors.Is(err, transport.ErrOAuthAuthorizationRequired)):
		return &LoginRequired{Service: u.spec.Name, Why: u.needsLogin}
	}
	return err
}

// noteLoginLocked records whether the upstream needs a login: after a
// start or a request, err a LoginRequired, a step-up's ScopeError or
// mcp-go's authorization-required error (a token refused, or one the
// store no longer hands out); nil clears it. The status shows it.
// Called with u.mu held.
func (u *Upstream) noteLoginLocked(err error) {
	if u.spec.OAuth == nil {
		return
	}
	var lr *LoginRequired
	var se *oauth.ScopeError
	switch {
	case err == nil:
		u.needsLogin = ""
	case errors.As(err, &lr):
		u.needsLogin = lr.Why
	case errors.As(err, &se):
		if !se.Asked {
			u.needsLogin = fmt.Sprintf("the server wants scope %q", strings.Join(se.Scopes, " "))
		}
	case u.needsLogin != "":
		// Already known, and more precisely than below.
	case errors.Is(err, transport.ErrOAuthAuthorizationRequired), errors.Is(err, oauth.ErrLoginRequired):
		u.needsLogin = "the server refused the token"
	}
}
