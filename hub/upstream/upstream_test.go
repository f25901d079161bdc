package upstream

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
)

func toolNamed(c Catalog, name string) (mcp.Tool, bool) {
	for _, t := range c.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return mcp.Tool{}, false
}

func resultText(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	if r == nil || len(r.Content) == 0 {
		t.Fatalf("empty result %+v", r)
	}
	tc, ok := mcp.AsTextContent(r.Content[0])
	if !ok {
		t.Fatalf("first content is %T, want text", r.Content[0])
	}
	return tc.Text
}

// sameJSON compares two JSON texts semantically.
func sameJSON(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got invalid JSON %s: %v", got, err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("schema changed on the way:\ngot  %s\nwant %s", got, want)
	}
}

func TestCatalogKeepsRawSchemas(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{}, selfSpec("faulty", "normal"))
	ctx := testContext(t)
	c, err := p.Get("faulty").Catalog(ctx)
	if err != nil {
		t.Fatal(err)
	}
	route, ok := toolNamed(c, "plot_route")
	if !ok {
		t.Fatalf("no plot_route in %d tools", len(c.Tools))
	}
	sameJSON(t, route.RawInputSchema, []byte(richSchema))
	sameJSON(t, route.RawOutputSchema, []byte(richOutputSchema))
	if route.Description != "plots a route" {
		t.Errorf("description %q", route.Description)
	}
	// The tool re-encodes with its raw schema, ready to be offered again.
	b, err := json.Marshal(route)
	if err != nil {
		t.Fatal(err)
	}
	var back struct{ InputSchema json.RawMessage }
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, back.InputSchema, []byte(richSchema))

	if len(longToolName) != 80 {
		t.Fatalf("longToolName has %d characters", len(longToolName))
	}
	if _, ok := toolNamed(c, longToolName); !ok {
		t.Errorf("the 80-character tool is missing")
	}
	r, err := p.Get("faulty").CallTool(ctx, longToolName, nil)
	if err != nil || resultText(t, r) != "long" {
		t.Errorf("call %s: %v %v", longToolName, r, err)
	}
	if len(c.Prompts) != 1 || c.Prompts[0].Name != "greet" {
		t.Errorf("prompts %+v", c.Prompts)
	}
	if len(c.Resources) != 1 || c.Resources[0].URI != "test://readme" {
		t.Errorf("resources %+v", c.Resources)
	}
	if st := statusOf(p, "faulty"); st.State != StateReady || st.Tools != len(c.Tools) || st.PID == 0 {
		t.Errorf("status %+v", st)
	}
}

func TestCallsPassThrough(t *testing.T) {
	p, _ := newTestPool(t, PoolOptions{}, selfSpec("faulty", "normal"))
	ctx := testContext(t)
	u := p.Get("faulty")
	msg := "verbatim: ünïcode \"quotes\" \\ and\nnewlines"
	for _, args := range []any{
		map[string]any{"message": msg},
		json.RawMessage(`{"message":` + string(must(json.Marshal(msg))) + `}`),
	} {
		r, err := u.CallTool(ctx, "echo", args)
		if err != nil {
			t.Fatal(err)
		}
		if got := resultText(t, r); got != msg {
			t.Errorf("echo returned %q, want %q", got, msg)
		}
	}
	pr, err := u.GetPrompt(ctx, "greet", map[string]string{"name": "ada"})
	if err != nil {
		t.Fatal(err)
	}
	if tc, _ := mcp.AsTextContent(pr.Messages[0].Content); tc.Text != "hello ada" {
		t.Errorf("prompt %+v", pr)
	}
	rr, err := u.ReadResource(ctx, "test://readme")
	if err != nil {
		t.Fatal(err)
	}
	if tc, _ := mcp.AsTextResourceContents(rr.Contents[0]); tc.Text != "read me" {
		t.Errorf("resource %+v", rr)
	}
	// An unknown tool is the upstream's error, named after the service,
	// and leaves the upstream running.
	if _, err := u.CallTool(ctx, "nope", nil); err == nil || !strings.Contains(err.Error(), "faulty") {
		t.Errorf("unknown tool: %v", err)
	}
	if st := statusOf(p, "faulty"); st.State != StateReady || st.Restarts != 0 {
		t.Errorf("status after an unknown tool: %+v", st)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestStdioStartsOnFirstNeed(t *testing.T) {
	p, log := newTestPool(t, PoolOptions{}, selfSpec("faulty", "normal"), selfSpec("other", "normal"))
	if st := statusOf(p, "faulty"); st.State != StateIdle || st.PID != 0 {
		t.Fatalf("before any call: %+v", st)
	}
	// Starting another upstream takes a whole process start: an eager
	// start of the first one would have begun by the time it is done.
	if _, err := p.Get("other").CallTool(testContext(t), "pid", nil); err != nil {
		t.Fatal(err)
	}
	if pids := log.startedPIDs(); len(pids) != 1 || statusOf(p, "faulty").State != StateIdle {
		t.Fatalf("started eagerly: %v, %+v", pids, statusOf(p, "faulty"))
	}
	if _, err := p.Get("faulty").CallTool(testContext(t), "pid", nil); err != nil {
		t.Fatal(err)
	}
	if st := statusOf(p, "faulty"); st.State != StateReady || st.PID == 0 {
		t.Fatalf("after a call: %+v", st)
	}
}

// TestPollsOnlyOverStreamableHTTP: only an upstream reached over
// Streamable HTTP may end a call's stream before its answer (SSE polling),
// so only its calls are served on a goroutine of their own.
func TestPollsOnlyOverStreamableHTTP(t *testing.T) {
	for transport, want := range map[string]bool{"": false, service.Stdio: false, service.SSE: false, service.HTTP: true} {
		if got := newUpstream(service.Service{Name: "s", Definition: service.Definition{Transport: transport}}, PoolOptions{}).Polls(); got != want {
			t.Errorf("an upstream over %q: Polls %v, want %v", transport, got, want)
		}
	}
}
