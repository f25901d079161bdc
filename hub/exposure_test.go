package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/tokens"
)

// setExposure rewrites the hub's exposure settings and profiles in the
// state at path, as apply would.
func setExposure(t *testing.T, path string, hub state.Hub, profiles map[string]state.Profile) {
	t.Helper()
	st, err := state.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	hub.Listen = "127.0.0.1:0"
	st.Hub, st.Profiles = &hub, profiles
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
}

// connectAt connects an mcp-go client to endpoint (a full URL) speaking
// version; "" lets it probe for the newest (2026-07-28, stateless).
func connectAt(t *testing.T, endpoint, version string) *client.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	var opts []client.ClientOption
	if version != "" {
		opts = append(opts, client.WithProtocolVersion(version))
	}
	c := client.NewClient(tr, opts...)
	ctx := bounded(t)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = version
	if version == "" {
		init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	}
	init.Params.ClientInfo = mcp.Implementation{Name: "exposure-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize %s (%s): %v", endpoint, version, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// listed returns the names a client's tools/list holds, sorted.
func listed(t *testing.T, c *client.Client) []string {
	t.Helper()
	var names []string
	for name := range toolNames(t, c) {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// callTool calls name with args and returns the result.
func callTool(t *testing.T, c *client.Client, name string, args any) *mcp.CallToolResult {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(bounded(t), req)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// resultText joins a result's text content.
func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// found returns the names search_tools answered, from its structured
// content, or from its text when there is none.
func found(t *testing.T, res *mcp.CallToolResult) []string {
	t.Helper()
	if res.IsError {
		t.Fatalf("search_tools failed: %s", resultText(res))
	}
	raw := []byte(resultText(res))
	if res.StructuredContent != nil {
		raw, _ = json.Marshal(res.StructuredContent)
	}
	return foundIn(t, raw)
}

// foundIn returns the tool names of a search_tools result's JSON.
func foundIn(t *testing.T, raw []byte) []string {
	t.Helper()
	var out struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("search_tools answered %s: %v", raw, err)
	}
	var names []string
	for _, tl := range out.Tools {
		names = append(names, tl.Name)
	}
	return names
}

var metaNames = []string{"call_tool", "describe_tools", "search_tools"}

// TestSearchModeOverHTTP: in search mode an endpoint lists the three
// meta-tools and the always tools; search, describe and call_tool see
// exactly what the endpoint offers (scope and policy honoured); call_tool
// validates against the tool's schema and answers with it; direct calls of
// offered tools keep working.
func TestSearchModeOverHTTP(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "work", "api")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "beta", project)},
		map[string]state.Policy{"alpha": {DisabledTools: []string{"delete_*"}}})
	setExposure(t, path, state.Hub{Tools: "search", Always: []string{"alpha__echo"}}, nil)
	r := startHub(t, path)

	c := connectAt(t, r.url+"/mcp", "2025-11-25")
	if got := strings.Join(listed(t, c), " "); got != "alpha__echo call_tool describe_tools search_tools" {
		t.Fatalf("search mode lists %s", got)
	}
	if tl := toolNames(t, c)["search_tools"]; tl.RawOutputSchema == nil && tl.OutputSchema.Type == "" {
		t.Error("search_tools has no output schema on 2025-11-25")
	}

	res := callTool(t, c, "search_tools", map[string]any{"query": "echo some text back", "limit": 50})
	if res.StructuredContent == nil {
		t.Error("search_tools answered without structured content on 2025-11-25")
	}
	names := found(t, res)
	if len(names) == 0 || names[0] != "alpha__echo" {
		t.Errorf("search for echo: %v", names)
	}
	for _, n := range found(t, callTool(t, c, "search_tools", map[string]any{"query": "delete everything dangerous echo schedule long", "limit": 50})) {
		if !strings.HasPrefix(n, "alpha__") || n == "alpha__delete_everything" {
			t.Errorf("search found %s: out of scope or disabled by policy", n)
		}
	}

	desc := callTool(t, c, "describe_tools", map[string]any{"names": []string{"alpha__schedule"}})
	if desc.IsError || !strings.Contains(resultText(desc), `"$defs"`) {
		t.Errorf("describe_tools lost the raw schema: %s", resultText(desc))
	}
	for _, hidden := range []string{"beta__echo", "alpha__delete_everything"} {
		if d := callTool(t, c, "describe_tools", map[string]any{"names": []string{hidden}}); !d.IsError {
			t.Errorf("describe_tools described %s: %s", hidden, resultText(d))
		}
		if d := callTool(t, c, "call_tool", map[string]any{"name": hidden, "arguments": map[string]any{}}); !d.IsError || !strings.Contains(resultText(d), "no tool named") {
			t.Errorf("call_tool reached %s: %s", hidden, resultText(d))
		}
	}

	if got := callTool(t, c, "call_tool", map[string]any{"name": "alpha__echo", "arguments": map[string]any{"text": "hi"}}); got.IsError || resultText(got) != "alpha:hi" {
		t.Errorf("call_tool alpha__echo: %s", resultText(got))
	}
	bad := callTool(t, c, "call_tool", map[string]any{"name": "alpha__echo", "arguments": map[string]any{"txt": "hi"}})
	if text := resultText(bad); !bad.IsError || !strings.Contains(text, "text") || !strings.Contains(text, `"required":["text"]`) {
		t.Errorf("call_tool with arguments that fail the schema: %s", text)
	}
	// Direct calls: an offered tool that is not listed works (unvalidated:
	// the upstream judges); a disabled one is refused; another project's is
	// unknown.
	if got := callTool(t, c, "alpha__schedule", map[string]any{}); got.IsError || resultText(got) != "scheduled" {
		t.Errorf("direct call of an unlisted tool: %s", resultText(got))
	}
	if got := callTool(t, c, "alpha__delete_everything", nil); !got.IsError || !strings.Contains(resultText(got), "disabled by a chronicle policy") {
		t.Errorf("direct call of a disabled tool: %s", resultText(got))
	}
	var req mcp.CallToolRequest
	req.Params.Name = "beta__echo"
	if _, err := c.CallTool(bounded(t), req); err == nil {
		t.Error("a direct call reached another project's service")
	}

	// Inside the project its service is found and called.
	inProject := connectAt(t, r.url+"/mcp?root="+url.QueryEscape(project), "2025-11-25")
	if names := found(t, callTool(t, inProject, "search_tools", map[string]any{"query": "echo text"})); !contains(names, "beta__echo") {
		t.Errorf("search inside the project: %v", names)
	}
	if got := callTool(t, inProject, "call_tool", map[string]any{"name": "beta__echo", "arguments": map[string]any{"text": "x"}}); resultText(got) != "beta:x" {
		t.Errorf("call_tool inside the project: %s", resultText(got))
	}

	// An older revision gets no output schemas and text alone.
	old := connectAt(t, r.url+"/mcp", "2025-03-26")
	tools := toolNames(t, old)
	for _, m := range metaNames {
		if tl, ok := tools[m]; !ok || tl.RawOutputSchema != nil || tl.OutputSchema.Type != "" {
			t.Errorf("%s on 2025-03-26: listed %v, output schema %s", m, ok, tl.RawOutputSchema)
		}
	}
	res = callTool(t, old, "search_tools", map[string]any{"query": "echo"})
	if res.StructuredContent != nil || !contains(found(t, res), "alpha__echo") {
		t.Errorf("search_tools on 2025-03-26: structured %v, text %s", res.StructuredContent, resultText(res))
	}
}

// TestProfileEndpoints: /mcp/profile/NAME offers the profile's services ∩
// the scope of ?root= ∩ policy, in the profile's own mode, on session
// revisions and statelessly; an unknown profile is 404; a call outside the
// profile is refused.
func TestProfileEndpoints(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	project := filepath.Join(dir, "work", "api")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("beta", "beta", project)},
		map[string]state.Policy{"alpha": {DisabledTools: []string{"delete_*"}}})
	setExposure(t, path, state.Hub{}, map[string]state.Profile{
		"echoes": {Tools: []string{"*__echo", "alpha__delete_*"}},
		"finder": {Services: []string{"beta"}, Exposure: "search"},
	})
	r := startHub(t, path)

	if got := strings.Join(listed(t, connectAt(t, r.url+"/mcp/profile/echoes", "2025-11-25")), " "); got != "alpha__echo" {
		t.Errorf("profile echoes outside the project lists %s", got)
	}
	scoped := r.url + "/mcp/profile/echoes?root=" + url.QueryEscape(project)
	for _, version := range []string{"2025-11-25", ""} {
		c := connectAt(t, scoped, version)
		if got := strings.Join(listed(t, c), " "); got != "alpha__echo beta__echo" {
			t.Errorf("profile echoes in the project (%q) lists %s", version, got)
		}
		if got := callTool(t, c, "beta__echo", map[string]any{"text": "p"}); resultText(got) != "beta:p" {
			t.Errorf("profile call (%q): %s", version, resultText(got))
		}
		var req mcp.CallToolRequest
		req.Params.Name = "alpha__schedule"
		if res, err := c.CallTool(bounded(t), req); err == nil && !res.IsError {
			t.Errorf("a tool outside the profile was called (%q): %s", version, resultText(res))
		}
		// The profile's glob matches the disabled tool: policy still wins.
		if got := callTool(t, c, "alpha__delete_everything", nil); !strings.Contains(resultText(got), "disabled by a chronicle policy") {
			t.Errorf("profile call of a disabled tool (%q): %s", version, resultText(got))
		}
	}

	finder := connectAt(t, r.url+"/mcp/profile/finder?root="+url.QueryEscape(project), "2025-11-25")
	if got := strings.Join(listed(t, finder), " "); got != strings.Join(metaNames, " ") {
		t.Errorf("profile finder lists %s", got)
	}
	for _, n := range found(t, callTool(t, finder, "search_tools", map[string]any{"query": "echo text schedule", "limit": 50})) {
		if !strings.HasPrefix(n, "beta__") {
			t.Errorf("profile finder found %s, outside its services", n)
		}
	}
	if got := strings.Join(listed(t, connectAt(t, r.url+"/mcp/profile/finder", "2025-11-25")), " "); got != strings.Join(metaNames, " ") {
		t.Errorf("profile finder outside the project lists %s", got)
	}

	resp, err := testHTTP.Post(r.url+"/mcp/profile/nope", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown profile: %d", resp.StatusCode)
	}
}

// statusOf reads /api/status.
func statusOf(t *testing.T, url string) (st struct {
	Services  []console.ServiceStatus  `json:"services"`
	Endpoints []console.EndpointStatus `json:"endpoints"`
}) {
	t.Helper()
	if err := json.Unmarshal([]byte(getJSON(t, url+"/api/status")), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// endpointOfStatus returns the status of one endpoint.
func endpointOfStatus(t *testing.T, url, endpoint, root string) console.EndpointStatus {
	t.Helper()
	for _, e := range statusOf(t, url).Endpoints {
		if e.Endpoint == endpoint && e.Root == root {
			return e
		}
	}
	t.Fatalf("/api/status shows no endpoint %s (root %q)", endpoint, root)
	return console.EndpointStatus{}
}

// TestTokenCosts: /api/tools gives each tool the o200k count of its
// definition as a client lists it; /api/status sums them per service and
// per endpoint, in full and as listed.
func TestTokenCosts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", ""), testService("gamma", "gamma", "")},
		map[string]state.Policy{"alpha": {DisabledTools: []string{"delete_*"}}})
	setExposure(t, path, state.Hub{}, map[string]state.Profile{"small": {Tools: []string{"alpha__echo"}, Exposure: "search"}})
	r := startHub(t, path)
	clientSees := rawToolsList(t, r.url+"/mcp")

	var tools []struct {
		Name    string `json:"name"`
		Service string `json:"service"`
		Blocked bool   `json:"blocked"`
		Tokens  int    `json:"tokens"`
	}
	if err := json.Unmarshal([]byte(getJSON(t, r.url+"/api/tools")), &tools); err != nil {
		t.Fatal(err)
	}
	full, perService, compared := 0, map[string]int{}, 0
	for _, tl := range tools {
		if tl.Blocked {
			continue
		}
		full += tl.Tokens
		perService[tl.Service] += tl.Tokens
		def, ok := clientSees[tl.Name]
		if !ok {
			t.Errorf("/api/tools names %s, which a client does not list", tl.Name)
			continue
		}
		compared++
		if want := tokens.Count(def.JSON()); tl.Tokens != want || want == 0 {
			t.Errorf("%s: /api/tools says %d tokens, the listed definition has %d", tl.Name, tl.Tokens, want)
		}
	}
	// alpha's three (its policy disables the fourth), gamma's four.
	if compared != 7 {
		t.Errorf("compared %d tools with what a client lists, want 7", compared)
	}
	st := statusOf(t, r.url)
	for _, s := range st.Services {
		if s.CatalogTokens != perService[s.Name] || s.ListedTokens != s.CatalogTokens {
			t.Errorf("service %s: catalogue %d, listed %d tokens; its tools sum to %d", s.Name, s.CatalogTokens, s.ListedTokens, perService[s.Name])
		}
	}
	hubEP := endpointOfStatus(t, r.url, "/mcp", "")
	if hubEP.Mode != "all" || hubEP.CatalogTokens != full || hubEP.ListedTokens != full || hubEP.Listed != len(clientSees) {
		t.Errorf("/mcp: %+v; the tools sum to %d, the client lists %d", hubEP, full, len(clientSees))
	}
	small := endpointOfStatus(t, r.url, "/mcp/profile/small", "")
	meta := 0
	for _, m := range rawToolsList(t, r.url+"/mcp/profile/small") {
		meta += tokens.Count(m.JSON())
	}
	if small.Mode != "search" || small.Tools != 1 || small.Listed != 3 || small.ListedTokens != meta || small.CatalogTokens != tokens.Count(clientSees["alpha__echo"].JSON()) {
		t.Errorf("/mcp/profile/small: %+v; its meta-tools cost %d", small, meta)
	}
	if meta > 1000 {
		t.Errorf("the three meta-tools cost %d tokens, more than 1,000", meta)
	}
}

// rawToolsList lists an endpoint's tools as they go over the wire
// (initialize, then tools/list, on 2025-11-25), each as the definition a
// client hands its model.
func rawToolsList(t *testing.T, endpoint string) map[string]tokens.Definition {
	t.Helper()
	send := func(session, body string) (*http.Response, []byte) {
		req, _ := http.NewRequest("POST", endpoint, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		}
		resp, err := testHTTP.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		// An event stream's last event is the response (a priming
		// event with no data may come first).
		if i := bytes.LastIndex(b, []byte("data:")); i >= 0 {
			b = bytes.TrimSpace(b[i+len("data:"):])
		}
		return resp, b
	}
	resp, _ := send("", initialize)
	sid := resp.Header.Get("Mcp-Session-Id")
	send(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_, body := send(sid, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var out struct {
		Result struct {
			Tools []tokens.Definition `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("tools/list of %s: %s: %v", endpoint, body, err)
	}
	defs := map[string]tokens.Definition{}
	for _, d := range out.Result.Tools {
		defs[d.Name] = d
	}
	return defs
}

// TestAutoHasHysteresis walks an auto endpoint's threshold around its
// catalogue's cost X through reloads: above the threshold it lists the
// meta-tools; raised to 1.1·X it stays in search (X is above 80 % of it);
// raised to 1.3·X it lists everything; lowered to 1.1·X it stays so; under X
// it searches again. /api/status shows each decision.
func TestAutoHasHysteresis(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("alpha", "alpha", "")}, nil)
	r := startHub(t, path)
	c := connectAt(t, r.url+"/mcp", "2025-11-25")
	all := listed(t, c)
	x := endpointOfStatus(t, r.url, "/mcp", "").CatalogTokens
	if x == 0 {
		t.Fatal("the catalogue costs no tokens")
	}
	for _, step := range []struct {
		threshold int
		want      string
	}{
		{x - 1, "search"},
		{x * 11 / 10, "search"},
		{x * 13 / 10, "all"},
		{x * 11 / 10, "all"},
		{x - 1, "search"},
	} {
		setExposure(t, path, state.Hub{Tools: "auto", SearchThreshold: step.threshold}, nil)
		if err := r.hub.Reload(); err != nil {
			t.Fatal(err)
		}
		got := listed(t, c)
		want := all
		if step.want == "search" {
			want = metaNames
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("threshold %d for %d tokens: lists %v, want %s mode", step.threshold, x, got, step.want)
		}
		if e := endpointOfStatus(t, r.url, "/mcp", ""); e.Mode != step.want || e.Configured != "auto" {
			t.Errorf("threshold %d: status %+v", step.threshold, e)
		}
	}
}

// TestSearchSurfaceNeedsNoUpstream: in search mode the meta-tools are
// listed even while no upstream has answered yet (one held at a gate past
// the grace period), and the always tools join when it does — announced
// with list_changed only then.
func TestSearchSurfaceNeedsNoUpstream(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	g := newGate(t)
	writeState(t, path, []service.Service{gatedService("slow", g)}, nil)
	setExposure(t, path, state.Hub{Tools: "search", Always: []string{"slow__echo"}}, nil)
	h := newTestHub(t, path, Options{ListGrace: time.Millisecond})
	defer h.Close()
	ctx := session.WithEndpoint(context.Background(), session.Endpoint{Path: "/mcp"})
	h.lister.Catalog(ctx) // the grace passes: the upstream waits at the gate
	var names []string
	for _, tl := range h.calls.toolFilter(ctx, allRegistered(h)) {
		names = append(names, tl.Name)
	}
	if strings.Join(names, " ") != strings.Join(metaNames, " ") {
		t.Fatalf("before any upstream answered, search mode lists %v", names)
	}
	before := h.lists.ListHash("tools", catalog.Where{})
	g.open(t)
	waitCatalog(t, h, func(c *catalog.Catalog) bool { return c.Tools["slow__echo"] != nil })
	names = names[:0]
	for _, tl := range h.calls.toolFilter(ctx, allRegistered(h)) {
		names = append(names, tl.Name)
	}
	if strings.Join(names, " ") != "call_tool describe_tools search_tools slow__echo" {
		t.Errorf("after the upstream answered: %v", names)
	}
	if h.lists.ListHash("tools", catalog.Where{}) == before {
		t.Error("the list changed, and its hash did not")
	}
}

// allRegistered returns the tools registered with mcp-go, sorted.
func allRegistered(h *Hub) []mcp.Tool {
	var out []mcp.Tool
	for _, st := range h.srv.ListTools() {
		out = append(out, st.Tool)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// TestFilterDecidesEachToolOnItsOwn: whether the policy filter lets a tool
// through depends on the tool and on whether the request calls it, never
// on how many tools mcp-go hands the filter at once (it hands the called
// tool alone today). In search mode a call of an offered, unlisted tool
// passes whether the filter sees it alone or among every registered tool;
// a list of that one tool does not show it; a policy's disabled tool
// passes only for its own call (the handler refuses it as blocked).
func TestFilterDecidesEachToolOnItsOwn(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{testService("alpha", "a", "")}, map[string]state.Policy{"alpha": {DisabledTools: []string{"delete_everything"}}})
	setExposure(t, path, state.Hub{Tools: "search"}, nil)
	h := newTestHub(t, path, Options{ListGrace: testGrace})
	defer h.Close()
	list := session.WithEndpoint(context.Background(), session.Endpoint{Path: "/mcp"})
	h.lister.Catalog(list) // lists alpha
	waitCatalog(t, h, func(c *catalog.Catalog) bool { return c.Tools["alpha__echo"] != nil })
	names := func(tools []mcp.Tool) string {
		var out []string
		for _, tl := range tools {
			out = append(out, tl.Name)
		}
		return strings.Join(out, " ")
	}
	echo := h.srv.GetTool("alpha__echo").Tool
	blocked := h.srv.GetTool("alpha__delete_everything").Tool
	call := session.WithCalling(list, "alpha__echo")
	for _, c := range []struct {
		name  string
		ctx   context.Context
		tools []mcp.Tool
		want  string
	}{
		{"a list of every tool", list, allRegistered(h), "call_tool describe_tools search_tools"},
		{"a list of the one tool", list, []mcp.Tool{echo}, ""},
		{"its call, the tool alone", call, []mcp.Tool{echo}, "alpha__echo"},
		{"its call, among every tool", call, allRegistered(h), "alpha__echo call_tool describe_tools search_tools"},
		{"another tool's call", call, []mcp.Tool{blocked}, ""},
		{"the disabled tool's own call", session.WithCalling(list, "alpha__delete_everything"), []mcp.Tool{blocked, echo}, "alpha__delete_everything"},
	} {
		if got := names(h.calls.toolFilter(c.ctx, c.tools)); got != c.want {
			t.Errorf("%s: the filter lets through %q, want %q", c.name, got, c.want)
		}
	}
}
