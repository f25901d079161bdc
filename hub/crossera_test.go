package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/testpeer"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// A 2026-07-28 client through the hub to server-everything, a session-era
// upstream that asks its client mid-call (decision 0230): the hub answers
// the client input_required while it holds the upstream's call, and gives
// the upstream the client's answer when the client retries.

// TestCrossEraRealClient runs the official 2.x TypeScript client, pinned
// to 2026-07-28, through the hub: its elicitation handler's answer — the
// content accepted, or a decline — and its sampling reach the upstream,
// whose tool results show them, over HTTP and stdio. (server-everything asks for roots once, at
// the start of its session, which no call is in: the hub answers that.)
func TestCrossEraRealClient(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	writeState(t, path, []service.Service{everythingService(t)}, nil)
	r := startHub(t, path)
	endpoint := r.url + "/mcp"

	s := runTS(t, "2", "http", endpoint, "2026-07-28", "elicitation")
	if s.ProtocolVersion != "2026-07-28" || !strings.Contains(s.Result, "User provided the requested information") || !strings.Contains(s.Result, "Name: Ada") {
		t.Errorf("accepted elicitation: the client spoke %s, the tool answered %q", s.ProtocolVersion, s.Result)
	}
	if s := runTS(t, "2", "http", endpoint, "2026-07-28", "elicitation", "ELICIT_ACTION=decline"); !strings.Contains(s.Result, "User declined") {
		t.Errorf("declined elicitation: the tool answered %q", s.Result)
	}
	if s := runTS(t, "2", "http", endpoint, "2026-07-28", "sampling"); !strings.Contains(s.Result, "sampled-by-the-test-client") {
		t.Errorf("sampling: the tool answered %q", s.Result)
	}
	if n := r.hub.pass.Held.Held(); n != 0 {
		t.Errorf("%d calls still held after every client had its answer", n)
	}
	// The same through serve --stdio.
	if s := runTS(t, "2", "stdio", stdioTarget(t, path), "2026-07-28", "elicitation"); s.ProtocolVersion != "2026-07-28" || !strings.Contains(s.Result, "Name: Ada") {
		t.Errorf("accepted elicitation over stdio: the client spoke %s, the tool answered %q", s.ProtocolVersion, s.Result)
	}
}

// TestCrossEraRequestState plays a 2026-07-28 client in raw HTTP, to do
// what a well-behaved SDK never does with the hub's requestState: alter
// it, send it as another client, use it twice, and never come back.
func TestCrossEraRequestState(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	// short is server-everything too, with a 3 s timeout and what the hub
	// writes to it copied to a FIFO the test reads.
	fifo := filepath.Join(dir, "short.in")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	toShort := readLines(t, fifo)
	short := everythingService(t)
	short.Name, short.Timeout = "short", 3*time.Second
	short.Definition.Args = append([]secret.Value{secret.Literal("-c"), secret.Literal(`tee "$0" | exec "$1" "$2" stdio`),
		secret.Literal(fifo), secret.Literal(testpeer.Node(t))}, short.Definition.Args[0])
	short.Definition.Command = "/bin/sh"
	writeState(t, path, []service.Service{everythingService(t), short}, nil)
	r := startHub(t, path)
	tool := "everything__trigger-elicitation-request"

	first := callAsModern(t, r.url, "client-a", tool, "")
	key, state := inputRequired(t, first)

	tampered := []byte(state)
	tampered[5] ^= 1
	expectRefused(t, "an altered requestState", callAsModern(t, r.url, "client-a", tool, answer(key, string(tampered), "Mallory")))
	expectRefused(t, "the requestState of another client", callAsModern(t, r.url, "client-b", tool, answer(key, state, "Mallory")))

	done := callAsModern(t, r.url, "client-a", tool, answer(key, state, "Grace"))
	if done.Error != nil || !strings.Contains(string(done.Result), "Name: Grace") {
		t.Fatalf("the retry with the answer: %s %+v; want the tool's result with the name the client gave", done.Result, done.Error)
	}
	expectRefused(t, "a requestState used before", callAsModern(t, r.url, "client-a", tool, answer(key, state, "Grace")))

	// A client that cannot answer an elicitation is not asked: the
	// upstream hears so, and its tool fails.
	if a := callAsModernWith(t, r.url, "client-c", `{"sampling":{}}`, tool, ""); a.Error != nil || !strings.Contains(string(a.Result), "did not declare it can answer elicitation/create") {
		t.Errorf("a client without elicitation: %s %+v", a.Result, a.Error)
	}

	// Nobody comes back: the hub cancels the call upstream once the
	// service's timeout has passed since it handed the question out, and
	// answers the upstream's elicitation with an error.
	_, state = inputRequired(t, callAsModern(t, r.url, "client-a", "short__trigger-elicitation-request", ""))
	cancelled := waitfor.Receive(t, toShort, "notifications/cancelled of the call nobody resumed")
	if !strings.Contains(cancelled, "did not come back with its answer within 3s") {
		t.Errorf("the upstream was told %s; want the cancellation naming the service's 3s bound", cancelled)
	}
	if n := r.hub.pass.Held.Held(); n != 0 {
		t.Errorf("%d calls still held after the one nobody resumed was cancelled", n)
	}
	noted(t, r.hub, "short: tools/call of trigger-elicitation-request, held for a 2026-07-28 client, was cancelled: the client did not come back with its answer within 3s")
	expectRefused(t, "the requestState of a call cancelled", callAsModern(t, r.url, "client-a", "short__trigger-elicitation-request", answer(key, state, "late")))
}

// noted waits for the hub's inspector to keep a note that begins with
// want.
func noted(t *testing.T, h *Hub, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	var seq uint64
	for ctx.Err() == nil {
		for _, rec := range h.inspector.Since(ctx, seq) {
			if strings.HasPrefix(rec.Note, want) {
				return
			}
			seq = rec.Seq
		}
	}
	t.Errorf("the inspector kept no note %q", want)
}

// A modernAnswer is a JSON-RPC answer to a 2026-07-28 request.
type modernAnswer struct {
	Status int
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

var modernIDs atomic.Int64

// callAsModern calls tool through the hub's /mcp as a 2026-07-28 client named
// client that can answer elicitations, with extra params (a retry's
// inputResponses and requestState) before its _meta.
func callAsModern(t *testing.T, base, client, tool, extra string) modernAnswer {
	t.Helper()
	return callAsModernWith(t, base, client, `{"elicitation":{"form":{}}}`, tool, extra)
}

// callAsModernWith is callAsModern for a client that declares caps.
func callAsModernWith(t *testing.T, base, client, caps, tool, extra string) modernAnswer {
	t.Helper()
	id := modernIDs.Add(1)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{},%s`+
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":%q,"version":"1"},`+
		`"io.modelcontextprotocol/clientCapabilities":%s}}}`, id, tool, extra, client, caps)
	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := testHTTP.Do(withToken(req))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	msg := raw
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		msg = nil
		for _, line := range strings.Split(string(raw), "\n") {
			if data, ok := strings.CutPrefix(line, "data:"); ok && strings.Contains(data, `"id"`) {
				msg = []byte(data)
			}
		}
	}
	var a modernAnswer
	if err := json.Unmarshal(msg, &a); err != nil || a.ID != int(id) {
		t.Fatalf("the answer to %s is %q (HTTP %d): %v", tool, raw, resp.StatusCode, err)
	}
	a.Status = resp.StatusCode
	return a
}

// inputRequired returns the one key of an input_required answer asking for
// an elicitation, and its requestState.
func inputRequired(t *testing.T, a modernAnswer) (key, state string) {
	t.Helper()
	var res struct {
		ResultType    string `json:"resultType"`
		InputRequests map[string]struct {
			Method string `json:"method"`
			Params struct {
				RequestedSchema struct {
					Properties map[string]any `json:"properties"`
				} `json:"requestedSchema"`
			} `json:"params"`
		} `json:"inputRequests"`
		RequestState string `json:"requestState"`
	}
	if a.Error != nil || json.Unmarshal(a.Result, &res) != nil || res.ResultType != "input_required" || len(res.InputRequests) != 1 || res.RequestState == "" {
		t.Fatalf("want input_required with one request and a requestState, got %s %+v", a.Result, a.Error)
	}
	for k, r := range res.InputRequests {
		if r.Method != "elicitation/create" || r.Params.RequestedSchema.Properties["name"] == nil {
			t.Fatalf("the input request is %s with %+v, want the upstream's elicitation/create", r.Method, r.Params)
		}
		key = k
	}
	return key, res.RequestState
}

// answer is a retry's params accepting the elicitation under key with name.
func answer(key, state, name string) string {
	return fmt.Sprintf(`"inputResponses":{%q:{"action":"accept","content":{"name":%q}}},"requestState":%q,`, key, name, state)
}

// expectRefused asserts a retry was refused with a JSON-RPC error the
// stateless revision answers on HTTP 400 (-32602, invalid params).
func expectRefused(t *testing.T, what string, a modernAnswer) {
	t.Helper()
	if a.Error == nil || a.Error.Code != -32602 || a.Status != http.StatusBadRequest || !strings.Contains(a.Error.Message, "requestState") {
		t.Errorf("%s: HTTP %d, result %s, error %+v; want -32602 on HTTP 400", what, a.Status, a.Result, a.Error)
	}
}

// readLines reads the FIFO at path until the test ends and sends each line
// that tells an upstream of a cancellation.
func readLines(t *testing.T, path string) <-chan string {
	out := make(chan string, 8)
	go func() {
		f, err := os.Open(path) // waits for the upstream's tee to open it
		if err != nil {
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if line := sc.Text(); strings.Contains(line, "notifications/cancelled") {
				select {
				case out <- line:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		// Opening for reading and writing never blocks: it lets a
		// reader still waiting for a writer go.
		if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	})
	return out
}

// askerService runs tools/npm/clients/asker.mjs, a session-era upstream
// of the official TypeScript SDK that asks its client mid-call and reports
// progress before and after, over stdio.
func askerService(t *testing.T) service.Service {
	script, err := filepath.Abs("../tools/npm/clients/asker.mjs")
	if err != nil {
		t.Fatal(err)
	}
	testpeer.NPM(t, "@modelcontextprotocol/sdk/package.json")
	return service.Service{Name: "asker", Enabled: true, Timeout: service.DefaultTimeout,
		Definition: service.Definition{Transport: "stdio", Command: testpeer.Node(t), Args: []secret.Value{secret.Literal(script)}}}
}

// TestCrossEraPromptAndProgress: mcp-go's client, pinned to 2026-07-28,
// calls a tool and gets a prompt of session-era upstreams that ask
// mid-call — the TypeScript SDK's over stdio, mcp-go's over Streamable
// HTTP (which serves 2026-07-28 too, so the hub must not send it that
// revision's _meta on the session) —; its answers reach the upstream, and
// the progress the upstream reports before it asks and before it answers
// reaches the client under its own token, in the round it is waiting in.
func TestCrossEraPromptAndProgress(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	asker := askerService(t)
	goAsker := service.Service{Name: "goasker", Enabled: true, Timeout: service.DefaultTimeout,
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(sessionEraAsker(t))}}
	writeState(t, path, []service.Service{asker, goAsker}, nil)
	r := startHub(t, path)
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	tok, err := r.hub.EnsureToken()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transport.NewStreamableHTTP(r.url+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + tok}))
	if err != nil {
		t.Fatal(err)
	}
	approve := &approver{}
	c := client.NewClient(tr, client.WithElicitationHandler(approve), client.WithProtocolVersion(mcp.LATEST_PROTOCOL_VERSION))
	t.Cleanup(func() { _ = c.Close() })
	var mu sync.Mutex
	var progress []string
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			progress = append(progress, fmt.Sprintf("%v:%v", n.Params.AdditionalFields["progressToken"], n.Params.AdditionalFields["progress"]))
			mu.Unlock()
		}
	})
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
	if res, err := c.Initialize(ctx, init); err != nil || res.ProtocolVersion != mcp.LATEST_PROTOCOL_VERSION {
		t.Fatalf("initialize: %+v, %v", res, err)
	}

	for i, svc := range []string{"asker", "goasker"} {
		req := mcp.CallToolRequest{}
		req.Params.Name = svc + "__ask"
		req.Params.Meta = &mcp.Meta{ProgressToken: "mine"}
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError || len(res.Content) == 0 || mcp.GetTextFromContent(res.Content[0]) != "accept, approve=true" {
			t.Fatalf("%s: tools/call: %+v, %v", svc, res, err)
		}
		pr, err := c.GetPrompt(ctx, mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: svc + "__ask"}})
		if err != nil || len(pr.Messages) != 1 || mcp.GetTextFromContent(pr.Messages[0].Content) != "accept, approve=true" {
			t.Fatalf("%s: prompts/get: %+v, %v", svc, pr, err)
		}
		if n := approve.count(); n != 2*(i+1) {
			t.Errorf("%s: the client was asked %d times in all, want %d", svc, n, 2*(i+1))
		}
	}
	// The TypeScript SDK writes its messages in turn over stdio, so its
	// progress is in the round it came before (mcp-go's server over HTTP
	// may send a notification after the request it made later: not
	// asserted).
	mu.Lock()
	defer mu.Unlock()
	if len(progress) < 2 || progress[0] != "mine:1" || progress[1] != "mine:2" {
		t.Errorf("the client saw the progress %v; want mine:1 and mine:2 first", progress)
	}
	if n := r.hub.pass.Held.Held(); n != 0 {
		t.Errorf("%d calls still held after every round was answered", n)
	}
}

// sessionEraAsker is an mcp-go server over Streamable HTTP that serves the
// session revisions only and asks its client mid-call, as asker.mjs does.
func sessionEraAsker(t *testing.T) string {
	srv := server.NewMCPServer("goasker", "1", server.WithToolCapabilities(false), server.WithPromptCapabilities(false))
	approval := func(ctx context.Context) string {
		res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{Message: "Approve?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"approve": map[string]any{"type": "boolean"}}}}})
		if err != nil {
			return "error: " + err.Error()
		}
		content, _ := res.Content.(map[string]any)
		return fmt.Sprintf("%s, approve=%v", res.Action, content["approve"])
	}
	srv.AddTool(mcp.NewTool("ask"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(approval(ctx)), nil
	})
	srv.AddPrompt(mcp.NewPrompt("ask"), func(ctx context.Context, _ mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return mcp.NewGetPromptResult("ask", []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(approval(ctx)))}), nil
	})
	// server/discover answers without 2026-07-28, so the hub uses the
	// session; mcp-go's server still tells each request's era by its _meta,
	// and refuses one with that revision's _meta under the session's
	// version header.
	ts := httptest.NewServer(server.NewStreamableHTTPServer(srv, server.WithStreamableHTTPProtocolVersions(mcp.LATEST_LEGACY_PROTOCOL_VERSION)))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	return ts.URL + "/mcp"
}
