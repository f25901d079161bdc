package hub

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// canary is a resolved secret with every character that escapes differently
// in JSON, URLs and HTML, and non-ASCII text.
const canary = `c4n&a<r>y"\/+=%-ü秘密-42`

// leakForms are the ways canary could appear in an output: raw, escaped in
// a JSON string (with and without HTML escaping) and URL-encoded.
func leakForms() []string {
	quoted, _ := json.Marshal(canary)
	var plain strings.Builder
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(canary)
	return []string{
		canary,
		string(quoted[1 : len(quoted)-1]),
		strings.TrimSuffix(strings.TrimSpace(plain.String()), `"`)[1:],
		url.QueryEscape(canary),
		url.PathEscape(canary),
	}
}

func assertNoLeak(t *testing.T, where, out string) {
	t.Helper()
	for _, f := range leakForms() {
		if strings.Contains(out, f) {
			t.Errorf("%s shows the secret (as %q):\n%s", where, f, out)
		}
	}
}

// A syncBuffer is a log destination safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestUpstreamSecretsNeverReachClientsOrPeople runs an upstream that repeats
// its resolved secret in its descriptions, schemas, prompts, resources,
// results, errors and stderr, and scans every output of the hub.
func TestUpstreamSecretsNeverReachClientsOrPeople(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	leaky := testService("leaky", "leaky", "")
	leaky.Env[leakEnv] = secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "HUB_CANARY"})
	writeState(t, path, []service.Service{leaky}, nil)

	log := &syncBuffer{}
	h, err := New(Options{
		StatePath: path, Home: t.TempDir(), Version: "test", ListGrace: testGrace,
		Logger: slog.New(slog.NewTextHandler(log, nil)),
		Getenv: func(k string) (string, bool) {
			if k == "HUB_CANARY" {
				return canary, true
			}
			return "", false
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	served := serveHub(t, h)
	base := served.url

	c := connect(t, base, nil)
	tools, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	listed, _ := json.Marshal(tools)
	if !strings.Contains(string(listed), "leaky__whoami") || !strings.Contains(string(listed), "Uses the key ******") {
		t.Fatalf("the leaky tool is not listed with its secret masked:\n%s", listed)
	}
	assertNoLeak(t, "tools/list", string(listed))

	text, _ := callText(t, c, "leaky__whoami", nil)
	if text != "your token is ******" {
		t.Errorf("result: %q, want the secret replaced and every other byte kept", text)
	}
	assertNoLeak(t, "tools/call result", text)
	text, isErr := callText(t, c, "leaky__fail", nil)
	if !isErr || !strings.Contains(text, "upstream rejected token ******") {
		t.Errorf("error result: %q", text)
	}
	assertNoLeak(t, "tools/call error", text)

	prompts, err := c.ListPrompts(context.Background(), mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(prompts)
	assertNoLeak(t, "prompts/list", string(b))
	var gp mcp.GetPromptRequest
	gp.Params.Name = "leaky__leak"
	got, err := c.GetPrompt(context.Background(), gp)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(got)
	assertNoLeak(t, "prompts/get", string(b))
	res, err := c.ListResources(context.Background(), mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(res)
	assertNoLeak(t, "resources/list", string(b))
	var rr mcp.ReadResourceRequest
	rr.Params.URI = "leak://r"
	if _, err := c.ReadResource(context.Background(), rr); err == nil {
		t.Error("the failing read succeeded")
	} else {
		assertNoLeak(t, "resources/read error", err.Error())
	}

	for _, p := range []string{"/api/tools", "/api/status", "/api/services", "/api/log"} {
		assertNoLeak(t, p, getJSON(t, base+p))
	}
	_, body := postJSON(t, base+"/api/call", `{"name":"leaky__whoami"}`)
	assertNoLeak(t, "/api/call", body)
	served.stop()
	if !strings.Contains(log.String(), "starting with token") {
		t.Errorf("the upstream's stderr is not in the hub log:\n%s", log)
	}
	assertNoLeak(t, "the hub log", log.String())
}
