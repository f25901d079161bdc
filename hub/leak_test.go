package hub

import (
	"encoding/json"
	"fmt"
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
	tools, err := c.ListTools(bounded(t), mcp.ListToolsRequest{})
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

	prompts, err := c.ListPrompts(bounded(t), mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(prompts)
	assertNoLeak(t, "prompts/list", string(b))
	var gp mcp.GetPromptRequest
	gp.Params.Name = "leaky__leak"
	got, err := c.GetPrompt(bounded(t), gp)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(got)
	assertNoLeak(t, "prompts/get", string(b))
	res, err := c.ListResources(bounded(t), mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(res)
	assertNoLeak(t, "resources/list", string(b))
	var rr mcp.ReadResourceRequest
	rr.Params.URI = "leak://r"
	if _, err := c.ReadResource(bounded(t), rr); err == nil {
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

// modernCall is a 2026-07-28 tools/call (no session: the revision has none).
func modernCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"alpha__echo","arguments":{"text":"hi"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`, id)
}

// TestSessionsLeaveNothingBehind: session ids a client makes up — on a
// 2026-07-28 request that has no session, on a session revision's request,
// on an HTTP+SSE message — leave no entry, and the entry of a session that
// ends (DELETE, the end of stdio's input) goes with it.
func TestSessionsLeaveNothingBehind(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "project")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	r := startHub(t, path)
	h := r.hub
	cancel := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d}}`

	for i := range 100 {
		fake := fmt.Sprintf("mcp-session-made-up-%d", i)
		modern := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Session-Id": fake, "Mcp-Method": "tools/call", "Mcp-Name": "alpha__echo"}
		if code, body, _ := do(t, "POST", r.url+"/mcp?root="+url.QueryEscape(project), modern, modernCall(i)); code != 200 || !strings.Contains(body, "alpha:hi") {
			t.Fatalf("a 2026-07-28 call with a made-up session id: %d %s", code, body)
		}
		do(t, "POST", r.url+"/mcp", map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Session-Id": fake, "Mcp-Method": "notifications/cancelled"}, fmt.Sprintf(cancel, i))
		legacy := map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": fake}
		if code, _, _ := do(t, "POST", r.url+"/mcp?root="+url.QueryEscape(project), legacy, fmt.Sprintf(cancel, i)); code != 404 {
			t.Fatalf("a made-up session id on 2025-11-25: %d, want 404", code)
		}
		if code, _, _ := do(t, "POST", r.url+"/message?sessionId="+fake, nil, fmt.Sprintf(cancel, i)); code < 400 {
			t.Fatalf("a message to a made-up HTTP+SSE session: %d, want an error", code)
		}
	}
	if live, pending := h.clients.Size(); live != 0 || pending != 0 {
		t.Errorf("made-up session ids left %d live and %d pending sessions, want none", live, pending)
	}

	// Real sessions have an entry while they live, and none after.
	var sids []string
	for range 5 {
		_, _, hdr := do(t, "POST", r.url+"/mcp", nil, initialize)
		sid := hdr.Get("Mcp-Session-Id")
		hs := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
		do(t, "POST", r.url+"/mcp", hs, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		if code, body, _ := do(t, "POST", r.url+"/mcp", hs, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"alpha__echo","arguments":{"text":"hi"}}}`); !strings.Contains(body, "alpha:hi") {
			t.Fatalf("a session's call: %d %s", code, body)
		}
		// A GET stream registers the session if its initialize has not
		// yet (mcp-go registers after answering).
		if code, _, _ := do(t, "GET", r.url+"/mcp", hs, ""); code != 200 {
			t.Fatalf("the session's GET stream: %d", code)
		}
		sids = append(sids, sid)
	}
	if live, pending := h.clients.Size(); live != 5 || pending != 0 {
		t.Errorf("5 sessions open: %d live and %d pending entries", live, pending)
	}
	if got := strings.Count(getJSON(t, r.url+"/api/status"), "mcp-session-"); got != 5 {
		t.Errorf("/api/status shows %d sessions, want 5", got)
	}
	for _, sid := range sids {
		if code, body, _ := do(t, "DELETE", r.url+"/mcp", map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}, ""); code != 200 {
			t.Fatalf("DELETE: %d %s", code, body)
		}
	}
	if live, pending := h.clients.Size(); live != 0 || pending != 0 {
		t.Errorf("after every session was deleted: %d live and %d pending entries, want none", live, pending)
	}
	if status := getJSON(t, r.url+"/api/status"); strings.Contains(status, "mcp-session-") {
		t.Errorf("/api/status still shows ended sessions:\n%s", status)
	}

	// A stdio session ends with its input.
	hs := newTestHub(t, path, Options{ListGrace: testGrace})
	p := startStdio(t, hs)
	p.send(t, initialize)
	p.until(t, `"id":1`)
	if live, _ := hs.clients.Size(); live != 1 {
		t.Errorf("serve --stdio: %d live sessions, want its one", live)
	}
	p.close(t)
	if live, pending := hs.clients.Size(); live != 0 || pending != 0 {
		t.Errorf("after stdio's input ended: %d live and %d pending entries, want none", live, pending)
	}
}
