package hub

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/oauthtest"
)

// TestOAuthServiceThroughTheHub: a remote service with an oauth block is
// served by the hub with the login `chronicle auth login` left in
// ~/.chronicle/oauth (a real authorization server in front of a server
// that checks the bearer token), and no token value reaches the client,
// the status or the inspector's log.
func TestOAuthServiceThroughTheHub(t *testing.T) {
	ts := oauthtest.Start(t)
	home := t.TempDir()
	spec := service.Service{
		Name:       "corp",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.MCPURL)},
		Enabled:    true,
		OAuth:      &service.OAuth{ClientID: oauthtest.ClientID, Scopes: []string{"openid", "offline_access"}},
	}
	store := oauth.NewStore(home, fsys.OS{}, mask.NewMasker())
	open, _ := oauthtest.Browser(t, ts, true)
	if _, err := (&oauth.Login{Store: store, Service: oauth.Service{Name: "corp", URL: ts.MCPURL, OAuth: *spec.OAuth}, Open: open}).Run(bounded(t)); err != nil {
		t.Fatalf("login: %v", err)
	}
	rec, err := store.Find(ts.MCPURL)
	if err != nil || rec.Token.AccessToken == "" {
		t.Fatalf("the login left no token: %v", err)
	}

	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{spec}, nil)
	r := serveHub(t, newTestHub(t, path, Options{OAuthHome: home, ListGrace: testGrace}))
	c := connect(t, r.url, nil)
	if text, isErr := callText(t, c, "corp__whoami", nil); isErr || text != "a logged-in user" {
		t.Fatalf("corp__whoami through the hub: %q (error %v)", text, isErr)
	}
	for _, page := range []string{"/api/status", "/api/log"} {
		body := getJSON(t, r.url+page)
		for _, tok := range []string{rec.Token.AccessToken, rec.Token.RefreshToken} {
			if tok != "" && strings.Contains(body, tok) {
				t.Errorf("%s shows a token of the login", page)
			}
		}
	}
}

// TestOAuthServiceWithoutLogin: without a login the service does not
// start, and a call says which command logs in.
func TestOAuthServiceWithoutLogin(t *testing.T) {
	ts := oauthtest.Start(t)
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{{
		Name:       "corp",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.MCPURL)},
		Enabled:    true,
		OAuth:      &service.OAuth{ClientID: oauthtest.ClientID},
	}}, nil)
	r := serveHub(t, newTestHub(t, path, Options{OAuthHome: t.TempDir(), ListGrace: testGrace}))
	if _, listed := toolNames(t, connect(t, r.url, nil))["corp__whoami"]; listed {
		t.Fatal("the service's tools are listed without a login")
	}
	if status := getJSON(t, r.url+"/api/status"); !strings.Contains(status, "chronicle auth login corp") {
		t.Fatalf("/api/status does not say how to log in: %.600s", status)
	}
}
