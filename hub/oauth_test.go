package hub

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"os"
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
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/internal/oauthtest"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// TestOAuthServiceThroughTheHub: a remote service with an oauth block is
// served by the hub with the login `chronicle auth login` left in
// ~/.chronicle/oauth (a real authorization server in front of a server
// that checks the bearer token), and no token value reaches the client,
// the status or the inspector's log.
func TestOAuthServiceThroughTheHub(t *testing.T) {
	ts := oauthtest.Start(t)
	home := t.TempDir()
	spec := corpService(ts)
	store := logIn(t, ts, home, spec)
	rec, err := store.Find(ts.MCPURL)
	if err != nil || rec.Token.AccessToken == "" {
		t.Fatalf("the login left no token: %v", err)
	}

	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{spec}, nil)
	var log syncBuffer // the hub's own log, at its most detailed
	r := serveHub(t, newTestHub(t, path, Options{OAuthHome: home, ListGrace: testGrace,
		Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))}))
	c := connect(t, r.url, nil)
	if text, isErr := callText(t, c, "corp__whoami", nil); isErr || text != "a logged-in user" {
		t.Fatalf("corp__whoami through the hub: %q (error %v)", text, isErr)
	}
	if st := serviceStatus(t, r.url, "corp"); st.Login != "logged in" || st.State != "ready" {
		t.Fatalf("/api/status shows corp as %+v, not as logged in", st)
	}
	if !strings.Contains(log.String(), "corp: ready") {
		t.Fatalf("the hub's log says nothing of corp starting: %.400s", log.String())
	}
	state, _ := os.ReadFile(path)
	pages := map[string]string{"the hub's log": log.String(), "the state": string(state)}
	for _, page := range []string{"/", "/api/status", "/api/log", "/api/mcp/services", "/api/services", "/api/tools"} {
		pages[page] = getJSON(t, r.url+page)
	}
	for name, body := range pages {
		for _, tok := range []string{rec.Token.AccessToken, rec.Token.RefreshToken} {
			if tok != "" && strings.Contains(body, tok) {
				t.Errorf("%s shows a token of the login", name)
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
	if st := serviceStatus(t, r.url, "corp"); st.Login != "login required" || st.State != "failed" {
		t.Fatalf("/api/status shows corp as %+v, not as needing a login", st)
	}
	text, isErr := callText(t, connect(t, r.url, nil), "corp__whoami", nil)
	if !isErr || !strings.Contains(text, "needs a login (no login yet)") || !strings.Contains(text, "run `chronicle auth login corp`") {
		t.Fatalf("a call of corp__whoami without a login: %q (error %v)", text, isErr)
	}
}

// serviceStatus returns service's entry in /api/status.
func serviceStatus(t *testing.T, base, service string) console.ServiceStatus {
	t.Helper()
	var doc struct {
		Services []console.ServiceStatus `json:"services"`
	}
	if err := json.Unmarshal([]byte(getJSON(t, base+"/api/status")), &doc); err != nil {
		t.Fatal(err)
	}
	for _, s := range doc.Services {
		if s.Name == service {
			return s
		}
	}
	t.Fatalf("/api/status has no service %s", service)
	return console.ServiceStatus{}
}

// TestOAuthLoginReachesARunningHub: a hub serves a service with an oauth
// block before anyone logged in; a login made then (as `chronicle auth
// login` makes it, into the same ~/.chronicle) reaches it without a
// restart: a connected client is told with tools/list_changed, and the
// service's tools are listed and answer.
func TestOAuthLoginReachesARunningHub(t *testing.T) {
	ts := oauthtest.Start(t)
	home := t.TempDir()
	spec := corpService(ts)
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{spec}, nil)
	h := newTestHub(t, path, Options{OAuthHome: home, ListGrace: testGrace})
	r := serveHub(t, h)
	watchLogins(t, h)

	c, changed := listeningClient(t, r.url)
	if _, listed := toolNames(t, c)["corp__whoami"]; listed {
		t.Fatal("the service's tools are listed before the login")
	}
	if status := getJSON(t, r.url+"/api/status"); !strings.Contains(status, "chronicle auth login corp") {
		t.Fatalf("/api/status does not say how to log in: %.600s", status)
	}

	logIn(t, ts, home, spec)
	waitfor.Receive(t, changed, "a tools/list_changed after the login")
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
	svc := oauth.Resource{Name: "corp", URL: ts.MCPURL, OAuth: service.OAuth{ClientID: oauthtest.ClientID, Scopes: []string{"openid", "offline_access"}}}
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
		if err := waitfor.Receive(t, watched, "the login watcher to stop"); err != nil {
			t.Errorf("watching the logins: %v", err)
		}
	})
}

// listeningClient connects a client of a 2025 revision that keeps the
// standalone GET stream open, and returns it with a channel that receives
// each tools/list_changed.
func listeningClient(t *testing.T, base string) (*client.Client, chan struct{}) {
	t.Helper()
	//lint:ignore SA1019 the hub sends list_changed on the standalone GET stream of the 2025 revisions
	tr, err := transport.NewStreamableHTTP(base+"/mcp", transport.WithContinuousListening())
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
	return c, changed
}

// TestOAuthLoginFromTheConsole: the console's Log in button. POST
// /api/mcp/services/corp/login starts the login as chronicle auth login
// does and answers the authorization URL; the browser (played by an HTTP
// client against the real provider) signs in and is redirected to the
// login's loopback listener; the hub then writes the record, starts the
// service (no folder watcher runs here: the endpoint completes the login
// itself), tells its clients with list_changed and lists its tools. No
// token reaches /api/status or the log.
func TestOAuthLoginFromTheConsole(t *testing.T) {
	ts := oauthtest.Start(t)
	home := t.TempDir()
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{{
		Name:       "corp",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.MCPURL)},
		Enabled:    true,
		OAuth:      &service.OAuth{ClientID: oauthtest.ClientID, Scopes: []string{"openid", "offline_access"}},
	}, {
		Name:       "plain",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.MCPURL)},
		Enabled:    true,
	}, {
		Name:       "down",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal("http://127.0.0.1:1/mcp")},
		Enabled:    true,
		OAuth:      &service.OAuth{},
	}}, nil)
	r := serveHub(t, newTestHub(t, path, Options{OAuthHome: home, ListGrace: testGrace}))
	c, changed := listeningClient(t, r.url)
	if _, listed := toolNames(t, c)["corp__whoami"]; listed {
		t.Fatal("the service's tools are listed before the login")
	}
	if st := serviceStatus(t, r.url, "corp"); st.Login != "login required" {
		t.Fatalf("/api/status before the login: %+v", st)
	}
	if code, body := postJSON(t, r.url+"/api/mcp/services/nope/login", `{}`); code != 404 {
		t.Fatalf("a login of an unknown service: %d %s", code, body)
	}
	if code, body := postJSON(t, r.url+"/api/mcp/services/plain/login", `{}`); code != 409 || !strings.Contains(body, "no oauth block") {
		t.Fatalf("a login of a service without an oauth block: %d %s", code, body)
	}
	if code, body := postJSON(t, r.url+"/api/mcp/services/down/login", `{}`); code != 502 || !strings.Contains(body, "the login of down did not start") {
		t.Fatalf("a login of a service that cannot be reached: %d %s", code, body)
	}

	code, body := postJSON(t, r.url+"/api/mcp/services/corp/login", `{}`)
	var start console.LoginStart
	if code != 200 || json.Unmarshal([]byte(body), &start) != nil || start.Service != "corp" {
		t.Fatalf("POST /api/mcp/services/corp/login: %d %s", code, body)
	}
	for _, want := range []string{ts.Issuer + "/", "code_challenge_method=S256", "&state=", "redirect_uri=" + url.QueryEscape("http://127.0.0.1:")} {
		if !strings.Contains(start.AuthorizationURL, want) {
			t.Fatalf("the authorization URL lacks %s: %s", want, start.AuthorizationURL)
		}
	}
	open, _ := oauthtest.Browser(t, ts, true)
	if err := open(start.AuthorizationURL); err != nil {
		t.Fatalf("the browser: %v", err)
	}
	waitfor.Receive(t, changed, "a tools/list_changed after the console's login")
	if _, listed := toolNames(t, c)["corp__whoami"]; !listed {
		t.Fatal("the service's tools are not listed after the console's login")
	}
	if text, isErr := callText(t, c, "corp__whoami", nil); isErr || text != "a logged-in user" {
		t.Fatalf("corp__whoami after the console's login: %q (error %v)", text, isErr)
	}
	if st := serviceStatus(t, r.url, "corp"); st.Login != "logged in" {
		t.Fatalf("/api/status after the login: %+v", st)
	}
	rec, err := oauth.NewStore(home, fsys.OS{}, mask.NewMasker()).Find(ts.MCPURL)
	if err != nil || rec == nil || rec.Token.AccessToken == "" {
		t.Fatalf("the console's login left no record: %v", err)
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

// TestOAuthStepUp: a tool the login's scopes do not cover is refused by
// the server with a 403 insufficient_scope. The call's tool error names
// chronicle auth login and the scope; the service shows as login required;
// a second call does not reach the server (the scope is asked for once,
// never in a loop). The next login asks for the wider scope, and the tool
// then answers, through the same running hub.
func TestOAuthStepUp(t *testing.T) {
	ts := oauthtest.Start(t)
	home := t.TempDir()
	svc := oauth.Resource{Name: "corp", URL: ts.MCPURL, OAuth: service.OAuth{ClientID: oauthtest.ClientID, Scopes: []string{"openid", "offline_access"}}}
	store := oauth.NewStore(home, fsys.OS{}, mask.NewMasker())
	open, _ := oauthtest.Browser(t, ts, true)
	if _, err := (&oauth.Login{Store: store, Service: svc, Open: open}).Run(bounded(t)); err != nil {
		t.Fatalf("login: %v", err)
	}
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{{
		Name:       "corp",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.MCPURL)},
		Enabled:    true,
		OAuth:      &svc.OAuth,
	}}, nil)
	r := serveHub(t, newTestHub(t, path, Options{OAuthHome: home, ListGrace: testGrace}))
	c := connect(t, r.url, nil)
	if text, isErr := callText(t, c, "corp__whoami", nil); isErr {
		t.Fatalf("corp__whoami with the login: %q", text)
	}

	for range 2 {
		text, isErr := callText(t, c, "corp__mail", nil)
		if !isErr || !strings.Contains(text, "chronicle auth login corp") || !strings.Contains(text, "email") {
			t.Fatalf("corp__mail with too narrow a login: %q (error %v)", text, isErr)
		}
	}
	if n := ts.StepUps(); n != 1 {
		t.Fatalf("the server refused %d calls for want of the scope, want 1: the step-up was asked for more than once", n)
	}
	if st := serviceStatus(t, r.url, "corp"); st.Login != "login required" || !strings.Contains(st.Error, "chronicle auth login corp") {
		t.Fatalf("/api/status after the step-up: %+v", st)
	}
	st, err := store.Status("corp", ts.MCPURL)
	if err != nil || st.Status != oauth.LoginRequired || !strings.Contains(st.Why, "email") {
		t.Fatalf("auth status after the step-up: %+v %v", st, err)
	}

	// The next login (chronicle auth login corp, or the console's
	// button) asks for the scope the server wanted too.
	var asked string
	if _, err := (&oauth.Login{Store: store, Service: svc, Open: func(u string) error {
		p, _ := url.Parse(u)
		asked = p.Query().Get("scope")
		return open(u)
	}}).Run(bounded(t)); err != nil {
		t.Fatalf("login after the step-up: %v", err)
	}
	if asked != "openid offline_access email" {
		t.Fatalf("the login after the step-up asked for scope %q", asked)
	}
	if text, isErr := callText(t, c, "corp__mail", nil); isErr || text != "mail read" {
		t.Fatalf("corp__mail after the wider login: %q (error %v)", text, isErr)
	}
	if st := serviceStatus(t, r.url, "corp"); st.Login != "logged in" {
		t.Fatalf("/api/status after the wider login: %+v", st)
	}
}

// corpService is the service the OAuth tests log in to: the MCP server
// behind oauthtest's provider, with its pre-registered client.
func corpService(ts *oauthtest.Servers) service.Service {
	return service.Service{
		Name:       "corp",
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(ts.MCPURL)},
		Enabled:    true,
		OAuth:      &service.OAuth{ClientID: oauthtest.ClientID, Scopes: []string{"openid", "offline_access"}},
	}
}

// logIn logs spec in as chronicle auth login does, into the store in home,
// the browser played by oauthtest, and returns the store.
func logIn(t *testing.T, ts *oauthtest.Servers, home string, spec service.Service) *oauth.Store {
	t.Helper()
	store := oauth.NewStore(home, fsys.OS{}, mask.NewMasker())
	open, _ := oauthtest.Browser(t, ts, true)
	if _, err := (&oauth.Login{Store: store, Service: oauth.Resource{Name: spec.Name, URL: ts.MCPURL, OAuth: *spec.OAuth}, Open: open}).Run(bounded(t)); err != nil {
		t.Fatalf("login: %v", err)
	}
	return store
}
