package hub

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
	"github.com/chronicle-dev/chronicle/providers"
)

// consoleHub is a hub over a machine where apply imported the skill review,
// linked it into claude, and declared the test upstream alpha.
type consoleHub struct {
	*running
	m *enginetest.Machine
}

func startConsoleHub(t *testing.T, token string) consoleHub {
	t.Helper()
	m := enginetest.New(t)
	m.Skill("skills", "review", "console.Review code.")
	exe, _ := os.Executable()
	hubBlock := ""
	if token != "" {
		t.Setenv("CONSOLE_TEST_TOKEN", token)
		hubBlock = "hub {\n  token = secret(\"env:CONSOLE_TEST_TOKEN\")\n}\n"
	}
	m.Converge(m.Config(hubBlock + `
service "alpha" {
  command = "` + exe + `"
  env = { ` + upstreamEnv + ` = "alpha" }
}
skill "review" {
  source = "./skills/review"
}
link "claude" {
  tools  = ["claude"]
  skills = ["*"]
}
`))
	h, err := New(Options{
		StatePath: filepath.Join(m.Chronicle, "state.json"), Home: m.Home, Version: "test", ListGrace: testGrace,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Workspace: &console.Workspace{
			ChronicleHome: m.Chronicle, KnownTools: providers.Names(),
			Tools: func(cfg *config.Config) (provider.Env, []provider.Provider) {
				var tools []*config.Tool
				if cfg != nil {
					tools = cfg.Tools
				}
				return m.Env, providers.All(tools)
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return consoleHub{running: serveHub(t, h), m: m}
}

// do sends a request and returns the status, body and headers.
func (c consoleHub) do(t *testing.T, method, path, contentType, body string, hdr ...string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, c.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := testHTTP.Do(withToken(req))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("%s %s answered with Access-Control-Allow-Origin %q", method, path, resp.Header.Get("Access-Control-Allow-Origin"))
	}
	return resp.StatusCode, string(b), resp.Header
}

func TestConsolePageAndHeaders(t *testing.T) {
	c := startConsoleHub(t, "console-token-1234567890")
	code, body, hdr := c.do(t, "GET", "/", "", "")
	if code != 200 || !strings.Contains(body, "chronicle hub") || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / without the token: %d %s", code, hdr.Get("Content-Type"))
	}
	csp := hdr.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe") {
		t.Errorf("CSP %q", csp)
	}
	if hdr.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("no nosniff on the page")
	}
	// No inline script, no handler attribute, and nothing from elsewhere.
	if regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]|\son[a-z]+=|(?:src|href)="(?:https?:)?//`).MatchString(body) {
		t.Errorf("the page has inline script or an outside reference")
	}
	for _, f := range []string{"app.js", "style.css", "icon.svg"} {
		code, body, hdr := c.do(t, "GET", "/console/"+f, "", "")
		if code != 200 || hdr.Get("X-Content-Type-Options") != "nosniff" || hdr.Get("Content-Type") == "" {
			t.Errorf("/console/%s: %d %v", f, code, hdr)
		}
		if strings.Contains(body, "innerHTML") || strings.Contains(body, "eval(") || regexp.MustCompile(`url\(\s*['"]?(?:https?:)?//`).MatchString(body) {
			t.Errorf("/console/%s renders HTML from data or loads from elsewhere", f)
		}
	}
	if code, _, _ := c.do(t, "GET", "/console/../api/status", "", "", "Authorization", ""); code == 200 {
		t.Errorf("a path out of the console's files was served")
	}
	// The data needs the token.
	if code, _, hdr := c.do(t, "GET", "/api/mcp/status", "", "", "Authorization", ""); code != 401 || hdr.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("/api/mcp/status without the token: %d", code)
	}
	if code, _, _ := c.do(t, "GET", "/api/mcp/status", "", "", "Authorization", "Bearer console-token-1234567890"); code != 200 {
		t.Errorf("/api/mcp/status with the token: %d", code)
	}
}

// mutations are the management routes that change something, with a valid
// JSON body each.
var mutations = []struct{ method, path, body string }{
	{"POST", "/api/mcp/call", `{"name":"alpha__echo","arguments":{"text":"x"}}`},
	{"POST", "/api/mcp/services/alpha/restart", `{}`},
	{"POST", "/api/mcp/services/alpha/login", `{}`},
	{"POST", "/api/skills/review/restore", `{"id":"1"}`},
	{"PUT", "/api/skills/review/meta", `{"tags":["go"],"rating":3}`},
}

func TestMutationsNeedJSONAndTheHubsOrigin(t *testing.T) {
	c := startConsoleHub(t, "")
	meta := filepath.Join(c.m.Chronicle, "skills-meta.json")
	for _, mu := range mutations {
		for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""} {
			if code, body, hdr := c.do(t, mu.method, mu.path, ct, mu.body); code != 415 || hdr.Get("Content-Type") != "application/json" {
				t.Errorf("%s %s as %q: %d %s, want 415", mu.method, mu.path, ct, code, body)
			}
		}
		for _, origin := range []string{"https://evil.example", "http://192.0.2.1:7311", "null", "http://127.0.0.1:8000", "http://localhost:5173"} {
			if code, _, _ := c.do(t, mu.method, mu.path, "application/json", mu.body, "Origin", origin); code != 403 {
				t.Errorf("%s %s from %s: %d, want 403", mu.method, mu.path, origin, code)
			}
		}
	}
	if _, err := os.Stat(meta); !os.IsNotExist(err) {
		t.Fatalf("a refused request wrote %s", meta)
	}
	// From the console itself (the hub's own origin) it goes through.
	if code, body, _ := c.do(t, "PUT", "/api/skills/review/meta", "application/json; charset=utf-8", `{"tags":["go"],"rating":3}`, "Origin", c.url); code != 200 || !strings.Contains(body, `"rating": 3`) {
		t.Fatalf("PUT meta from the console: %d %s", code, body)
	}
	// A preflight gets nothing that would let another site in: a refusal
	// (405: the route table has no OPTIONS row), without a single
	// Access-Control-Allow-* header (do checks the -Origin one).
	for _, path := range []string{"/api/skills/review/meta", "/api/mcp/call", "/mcp", "/message"} {
		code, _, hdr := c.do(t, "OPTIONS", path, "", "", "Origin", "https://evil.example", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type")
		if code < 400 || hdr.Get("Access-Control-Allow-Methods") != "" || hdr.Get("Access-Control-Allow-Headers") != "" {
			t.Errorf("a preflight of %s from another site: %d %v, want a refusal without Access-Control headers", path, code, hdr)
		}
	}
}

func TestSeedPathsAnswerAsTheAPI(t *testing.T) {
	c := startConsoleHub(t, "")
	for _, p := range []string{"/services", "/tools"} {
		_, a, _ := c.do(t, "GET", "/api"+p, "", "")
		_, b, hdr := c.do(t, "GET", "/api/mcp"+p, "", "")
		if a != b || hdr.Get("Content-Type") != "application/json" {
			t.Errorf("/api/mcp%s differs from /api%s:\n%s\n%s", p, p, b, a)
		}
	}
	var a, b map[string]any
	_, sa, _ := c.do(t, "GET", "/api/status", "", "")
	_, sb, _ := c.do(t, "GET", "/api/mcp/status", "", "")
	json.Unmarshal([]byte(sa), &a)
	json.Unmarshal([]byte(sb), &b)
	delete(a, "uptime_seconds")
	delete(b, "uptime_seconds")
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("/api/mcp/status differs from /api/status:\n%s\n%s", jb, ja)
	}
}

// TestServesBeforeTheFirstApply: on a machine chronicle does not manage
// yet (no state) the hub serves no services and the console's takeover
// review is live: it shows what the tools have.
func TestServesBeforeTheFirstApply(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".cursor/mcp.json", `{"mcpServers":{"linear":{"command":"npx","args":["linear"]}}}`)
	log := &syncBuffer{}
	h, err := New(Options{
		StatePath: filepath.Join(m.Chronicle, "state.json"), Home: m.Home, Version: "test", ListGrace: testGrace,
		Logger: slog.New(slog.NewTextHandler(log, nil)),
		Workspace: &console.Workspace{
			ChronicleHome: m.Chronicle, KnownTools: providers.Names(),
			Tools: func(cfg *config.Config) (provider.Env, []provider.Provider) { return m.Env, providers.All(nil) },
		},
	})
	if err != nil {
		t.Fatalf("a hub without a state: %v", err)
	}
	c := consoleHub{running: serveHub(t, h), m: m}
	var st struct {
		Services []console.ServiceStatus `json:"services"`
	}
	if err := json.Unmarshal([]byte(getJSON(t, c.url+"/api/mcp/status")), &st); err != nil || len(st.Services) != 0 {
		t.Fatalf("status without a state: %v %+v", err, st)
	}
	code, body, _ := c.do(t, "GET", "/api/mcp/review?wait=1", "", "")
	if code != 200 || !strings.Contains(body, `"name": "linear"`) || !strings.Contains(body, `"status": "new"`) {
		t.Fatalf("the review without a state: %d %s", code, body)
	}
	if !strings.Contains(log.String(), "no state yet") {
		t.Errorf("the hub did not say it has no state:\n%s", log.String())
	}
}
