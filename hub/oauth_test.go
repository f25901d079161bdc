package hub

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

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

// TestOAuthLoginReachesARunningHub: a hub serves a service with an oauth
// block before anyone logged in; a login made then (as `chronicle auth
// login` makes it, into the same ~/.chronicle) reaches it without a
// restart: a connected client is told with tools/list_changed, and the
// service's tools are listed and answer.
func TestOAuthLoginReachesARunningHub(t *testing.T) {
	ts := oauthtest.Start(t)
	home := t.TempDir()
	spec := service.Service{
		Name:       "corp",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.MCPURL)},
		Enabled:    true,
		OAuth:      &service.OAuth{ClientID: oauthtest.ClientID, Scopes: []string{"openid", "offline_access"}},
	}
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{spec}, nil)
	h := newTestHub(t, path, Options{OAuthHome: home, ListGrace: testGrace})
	r := serveHub(t, h)
	watchLogins(t, h)

	//lint:ignore SA1019 the hub sends list_changed on the standalone GET stream of the 2025 revisions
	tr, err := transport.NewStreamableHTTP(r.url+"/mcp", transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	changed := make(chan struct{}, 8)
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == string(mcp.MethodNotificationToolsListChanged) {
			changed <- struct{}{}
		}
	})
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(bounded(t), init); err != nil {
		t.Fatal(err)
	}
	if _, listed := toolNames(t, c)["corp__whoami"]; listed {
		t.Fatal("the service's tools are listed before the login")
	}
	if status := getJSON(t, r.url+"/api/status"); !strings.Contains(status, "chronicle auth login corp") {
		t.Fatalf("/api/status does not say how to log in: %.600s", status)
	}

	store := oauth.NewStore(home, fsys.OS{}, mask.NewMasker())
	open, _ := oauthtest.Browser(t, ts, true)
	if _, err := (&oauth.Login{Store: store, Service: oauth.Service{Name: "corp", URL: ts.MCPURL, OAuth: *spec.OAuth}, Open: open}).Run(bounded(t)); err != nil {
		t.Fatalf("login: %v", err)
	}
	receive(t, changed, "a tools/list_changed after the login")
	if _, listed := toolNames(t, c)["corp__whoami"]; !listed {
		t.Fatal("the service's tools are not listed after the login")
	}
	if text, isErr := callText(t, c, "corp__whoami", nil); isErr || text != "a logged-in user" {
		t.Fatalf("corp__whoami after the login: %q (error %v)", text, isErr)
	}
}

// TestOAuthLoginReachesAStdioHub: the same for serve --stdio, the hub each
// tool starts for itself: a login made while it runs is announced on its
// stdout and the service's tools are listed.
func TestOAuthLoginReachesAStdioHub(t *testing.T) {
	ts := oauthtest.Start(t)
	home := t.TempDir()
	svc := oauth.Service{Name: "corp", URL: ts.MCPURL, OAuth: service.OAuth{ClientID: oauthtest.ClientID, Scopes: []string{"openid", "offline_access"}}}
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{{
		Name:       "corp",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.MCPURL)},
		Enabled:    true,
		OAuth:      &svc.OAuth,
	}}, nil)
	h := newTestHub(t, path, Options{OAuthHome: home, ListGrace: testGrace})
	watchLogins(t, h)
	p := startStdio(t, h)
	p.send(t, initialize)
	p.until(t, `"id":1`)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.send(t, `{"jsonrpc":"2.0","id":"l1","method":"tools/list"}`)
	if got := p.until(t, `"id":"l1"`); strings.Contains(got[len(got)-1], "corp__whoami") {
		t.Fatalf("the service's tools are listed before the login: %s", got[len(got)-1])
	}

	open, _ := oauthtest.Browser(t, ts, true)
	if _, err := (&oauth.Login{Store: oauth.NewStore(home, fsys.OS{}, mask.NewMasker()), Service: svc, Open: open}).Run(bounded(t)); err != nil {
		t.Fatalf("login: %v", err)
	}
	p.until(t, `"notifications/tools/list_changed"`)
	p.send(t, `{"jsonrpc":"2.0","id":"l2","method":"tools/list"}`)
	if got := p.until(t, `"id":"l2"`); !strings.Contains(got[len(got)-1], "corp__whoami") {
		t.Fatalf("the service's tools are not listed after the login: %s", got[len(got)-1])
	}
}

// watchLogins runs h.WatchLogins until the test ends, as serve does.
func watchLogins(t *testing.T, h *Hub) {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	watched := make(chan error, 1)
	go func() { watched <- h.WatchLogins(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := receive(t, watched, "the login watcher to stop"); err != nil {
			t.Errorf("watching the logins: %v", err)
		}
	})
}
