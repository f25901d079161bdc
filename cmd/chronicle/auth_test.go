package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/internal/oauthtest"
)

// authCLI runs chronicle in process with the browser played by open and
// stdin from in.
func authCLI(t *testing.T, cfgDir string, open func(string) error, in io.Reader, args ...string) (string, string, int) {
	t.Helper()
	var o, e bytes.Buffer
	a := newApp(in, &o, &e)
	a.openURL = open
	code := a.run(append([]string{"--chdir", cfgDir}, args...))
	return o.String(), e.String(), code
}

// TestAuthLoginThroughTheCLI logs in with chronicle auth login against a
// real authorization server, through the browser and through a pasted
// redirect, and checks that no token reaches the output or the state.
func TestAuthLoginThroughTheCLI(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CHRONICLE_HOME", "")
	ts := oauthtest.Start(t)
	cfg := filepath.Join(home, "cfg")
	os.MkdirAll(cfg, 0o755)
	os.WriteFile(filepath.Join(cfg, "chronicle.hcl"), []byte(fmt.Sprintf(`
service "corp" {
  url = %q
  oauth {
    client_id = %q
    scopes    = ["openid", "offline_access"]
  }
}
`, ts.MCPURL, oauthtest.ClientID)), 0o644)

	open, _ := oauthtest.Browser(t, ts, true)
	out, errOut, code := authCLI(t, cfg, open, strings.NewReader(""), "auth", "login")
	if code != 0 || !strings.Contains(out, "corp: logged in at "+ts.Issuer+" (pre-registered registration)") {
		t.Fatalf("auth login exited %d:\n%s\n%s", code, out, errOut)
	}
	out, _, code = authCLI(t, cfg, nil, nil, "auth", "status", "--json")
	var statuses []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &statuses) != nil || len(statuses) != 1 || statuses[0]["status"] != "logged in" || statuses[0]["issuer"] != ts.Issuer {
		t.Fatalf("auth status --json exited %d: %s", code, out)
	}
	out2, _, _ := authCLI(t, cfg, nil, nil, "auth", "login")
	if !strings.Contains(out2, "Every service with an oauth block is logged in.") {
		t.Fatalf("a second login without names: %s", out2)
	}

	// --no-browser: the URL is printed, and the redirect pasted.
	follow, redirected := oauthtest.Browser(t, ts, false)
	pr, pw := io.Pipe()
	printed := &urlWatch{prefix: ts.Issuer, found: make(chan string, 1)}
	go func() {
		select {
		case u := <-printed.found:
			if err := follow(u); err == nil {
				io.WriteString(pw, redirected()+"\n")
			}
		case <-time.After(30 * time.Second):
		}
	}()
	a := newApp(pr, printed, io.Discard)
	code = a.run([]string{"--chdir", cfg, "auth", "login", "corp", "--no-browser"})
	if code != 0 || !strings.Contains(printed.String(), "paste here") {
		t.Fatalf("auth login --no-browser exited %d: %s", code, printed.String())
	}
	// The printed URL is whole (not masked) and asks for PKCE S256, a
	// state, the resource and a loopback redirect.
	authURL := printed.String()[strings.Index(printed.String(), ts.Issuer):]
	authURL = authURL[:strings.Index(authURL, "\n")]
	for _, want := range []string{"code_challenge_method=S256", "&state=", "resource=" + url.QueryEscape(ts.MCPURL), "redirect_uri=" + url.QueryEscape("http://127.0.0.1:")} {
		if !strings.Contains(authURL, want) || strings.Contains(authURL, "…") {
			t.Fatalf("the printed URL lacks %s or is cut: %s", want, authURL)
		}
	}

	store := oauth.NewStore(filepath.Join(home, ".chronicle"), fsys.OS{}, mask.NewMasker())
	rec, err := store.Find(ts.MCPURL)
	if err != nil || rec == nil || rec.Token.AccessToken == "" {
		t.Fatalf("no record after login: %v", err)
	}
	planOut, planErr, code := authCLI(t, cfg, nil, nil, "plan")
	if code != 0 {
		t.Fatalf("plan exited %d: %s", code, planErr)
	}
	planFile := filepath.Join(home, "saved.plan")
	if _, errOut, code := authCLI(t, cfg, nil, nil, "plan", "--out", planFile); code != 0 {
		t.Fatalf("plan --out exited %d: %s", code, errOut)
	}
	savedPlan, err := os.ReadFile(planFile)
	if err != nil {
		t.Fatal(err)
	}
	applyOut, _, _ := authCLI(t, cfg, nil, nil, "apply", "-auto-approve")
	stateBytes, _ := os.ReadFile(filepath.Join(home, ".chronicle", "state.json"))
	for _, v := range []string{rec.Token.AccessToken, rec.Token.RefreshToken} {
		for name, text := range map[string]string{"login output": out + printed.String(), "plan": planOut + planErr, "saved plan": string(savedPlan), "apply": applyOut, "state": string(stateBytes)} {
			if strings.Contains(text, v) {
				t.Fatalf("a token appears in the %s", name)
			}
		}
	}

	// A login that ends within a day with nothing to renew it is a plan line.
	rec.Token.RefreshToken = ""
	rec.Token.ExpiresAt = time.Now().Add(2 * time.Hour)
	writeRecord(t, store, rec)
	planOut, _, code = authCLI(t, cfg, nil, nil, "plan")
	if code != 0 || !strings.Contains(planOut, "OAuth: corp's token expires at ") {
		t.Fatalf("plan exited %d without the expiry line:\n%s", code, planOut)
	}

	out, _, code = authCLI(t, cfg, nil, nil, "auth", "logout", "corp")
	if code != 0 || !strings.Contains(out, "corp: tokens revoked and forgotten.") || ts.Accepts(t.Context(), "Bearer "+rec.Token.AccessToken) {
		t.Fatalf("auth logout exited %d: %s", code, out)
	}
}

// writeRecord saves rec through a token store, as a refresh would.
func writeRecord(t *testing.T, store *oauth.Store, rec *oauth.Record) {
	t.Helper()
	tok := *rec.Token
	if err := store.TokensFor(*rec).SaveToken(t.Context(), &transport.Token{AccessToken: tok.AccessToken, TokenType: tok.TokenType, ExpiresAt: tok.ExpiresAt}); err != nil {
		t.Fatal(err)
	}
}

// urlWatch is a command's standard output that reports the first whole
// line starting with prefix (after spaces) as soon as it is printed.
type urlWatch struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	prefix string
	sent   bool
	found  chan string
}

func (u *urlWatch) Write(p []byte) (int, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	n, err := u.buf.Write(p)
	if !u.sent {
		for _, line := range strings.Split(u.buf.String(), "\n") {
			if l := strings.TrimSpace(line); strings.HasPrefix(l, u.prefix) {
				u.sent = true
				u.found <- l
				break
			}
		}
	}
	return n, err
}

func (u *urlWatch) String() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.buf.String()
}
