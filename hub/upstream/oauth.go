package upstream

import (
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/chronicle-dev/chronicle/engine/oauth"
)

// oauthConfig returns mcp-go's OAuth configuration for an upstream whose
// service has an oauth block, with the login `chronicle auth login` left
// in the pool's store as its TokenStore; nil for a service without one or
// a pool without a store. A service that holds no usable login does not
// start: its error says which command logs it in.
func (u *Upstream) oauthConfig(rs *resolution, url string) (*transport.OAuthConfig, *oauth.Tokens, error) {
	if u.spec.OAuth == nil || u.opts.OAuth == nil {
		return nil, nil, nil
	}
	svc := oauth.Service{Name: u.spec.Name, URL: url, OAuth: *u.spec.OAuth}
	if !u.spec.OAuth.ClientSecret.IsZero() {
		s, err := rs.value(u.spec.OAuth.ClientSecret)
		if err != nil {
			return nil, nil, err
		}
		svc.ClientSecret = s
	}
	st, err := u.opts.OAuth.Status(svc.Name, url)
	if err != nil {
		return nil, nil, err
	}
	if st.Status != oauth.LoggedIn {
		return nil, nil, fmt.Errorf("login required (%s): run chronicle auth login %s", st.Why, svc.Name)
	}
	rec, err := u.opts.OAuth.Find(url)
	if err != nil || rec == nil {
		return nil, nil, fmt.Errorf("login required: run chronicle auth login %s", svc.Name)
	}
	cfg, tokens := u.opts.OAuth.Config(svc, rec, nil)
	return &cfg, tokens, nil
}
