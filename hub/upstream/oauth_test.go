package upstream

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/oauthtest"
)

// TestOAuthUpstream reaches a server that wants OAuth (a real provider in
// front of it) with the login chronicle auth login leaves in the store:
// without one the service does not start and says which command helps;
// with one its tools are listed and called, and an expired token is
// refreshed on the way.
func TestOAuthUpstream(t *testing.T) {
	ts := oauthtest.Start(t)
	home := t.TempDir()
	m := mask.NewMasker()
	store := oauth.NewStore(filepath.Join(home, ".chronicle"), fsys.OS{}, m)
	spec := service.Service{
		Name:       "corp",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.MCPURL)},
		Enabled:    true,
		OAuth:      &service.OAuth{ClientID: oauthtest.ClientID, Scopes: []string{"openid", "offline_access"}},
	}
	ctx := testContext(t)

	before, _ := newTestPool(t, PoolOptions{OAuth: store, Masker: m}, spec)
	if st := before.Get("corp").Status(); st.State != StateIdle || st.Login != oauth.LoginRequired || st.LoginWhy != "no login yet" {
		t.Fatalf("the status of a service without a login, before it starts: %+v", st)
	}
	_, err := before.Get("corp").Catalog(ctx)
	var lr *LoginRequired
	if !errors.As(err, &lr) || !errors.Is(err, oauth.ErrLoginRequired) || !strings.Contains(err.Error(), "chronicle auth login corp") {
		t.Fatalf("a service without a login: %v", err)
	}
	if st := before.Get("corp").Status(); st.State != StateFailed || st.Login != oauth.LoginRequired {
		t.Fatalf("the status of a service that failed for want of a login: %+v", st)
	}

	open, _ := oauthtest.Browser(t, ts, true)
	svc := oauth.Resource{Name: "corp", URL: ts.MCPURL, OAuth: *spec.OAuth}
	if _, err := (&oauth.Login{Store: store, Service: svc, Open: open}).Run(ctx); err != nil {
		t.Fatalf("login: %v", err)
	}
	// The pool that failed for want of a login starts the service again
	// at once, without waiting out its backoff; a ready one is left alone.
	if names := before.RetryLogins(); !slices.Equal(names, []string{"corp"}) {
		t.Fatalf("RetryLogins after a login: %v", names)
	}
	if _, err := before.Get("corp").Catalog(ctx); err != nil {
		t.Fatalf("catalog of the failed upstream after the login: %v", err)
	}
	if names := before.RetryLogins(); names != nil {
		t.Fatalf("RetryLogins restarted a ready upstream: %v", names)
	}
	if st := before.Get("corp").Status(); st.State != StateReady || st.Login != oauth.LoggedIn {
		t.Fatalf("the status of a service started with its login: %+v", st)
	}
	p, _ := newTestPool(t, PoolOptions{OAuth: store, Masker: m}, spec)
	u := p.Get("corp")
	if st := u.Status(); st.State != StateIdle || st.Login != oauth.LoggedIn {
		t.Fatalf("the status of a logged-in service before it starts: %+v", st)
	}
	c, err := u.Catalog(ctx)
	if err != nil {
		t.Fatalf("catalog after login: %v", err)
	}
	if _, ok := toolNamed(c, "whoami"); !ok {
		t.Fatal("no whoami")
	}

	rec, _ := store.Find(ts.MCPURL)
	old := rec.Token.RefreshToken
	rec.Token.ExpiresAt = time.Now().Add(-time.Second)
	_, tokens := store.Config(svc, rec, nil)
	if err := tokens.SaveToken(ctx, rec.Token); err != nil {
		t.Fatal(err)
	}
	if r, err := u.CallTool(ctx, "whoami", nil); err != nil || resultText(t, r) != "a logged-in user" {
		t.Fatalf("a call with an expired token: %v", err)
	}
	after, _ := store.Find(ts.MCPURL)
	if after.Token.RefreshToken == old || !after.Token.ExpiresAt.After(time.Now()) {
		t.Fatal("the hub did not refresh the expired token")
	}
	if st := statusOf(p, "corp"); strings.Contains(st.Error, after.Token.AccessToken) {
		t.Fatalf("the status shows a token: %+v", st)
	}
}
