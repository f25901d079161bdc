package pipe

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// hangGuard bounds every wait of these tests.
const hangGuard = 30 * time.Second

func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	t.Cleanup(cancel)
	return ctx
}

// serve runs srv as mcp-go's stdio server on a pair of pipes and returns
// the transport of a client of it.
func serve(t *testing.T, srv *server.MCPServer) *Transport {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = server.NewStdioServer(srv).Listen(ctx, toServer, fromServer)
		fromServer.Close()
	}()
	t.Cleanup(func() {
		cancel()
		fromClient.Close()
		toServer.Close()
		<-done
	})
	return New(toClient, fromClient, nil)
}

type sampler struct{}

func (sampler) CreateMessage(_ context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	text := req.Messages[0].Content.(mcp.TextContent).Text
	return &mcp.CreateMessageResult{Model: "m", SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent("sampled " + text)}}, nil
}

// TestWithMCPGoServer: mcp-go's client over the transport talks to
// mcp-go's stdio server: the handshake, a call whose result comes as the
// server sent it (a result bigger than the reader's buffer too), the
// server's notifications during a call, a sampling request the server
// makes of the client mid-call, and a JSON-RPC error.
func TestWithMCPGoServer(t *testing.T) {
	srv := server.NewMCPServer("s", "1", server.WithToolCapabilities(false), server.WithLogging())
	srv.AddTool(mcp.NewTool("echo"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{"progressToken": "p", "progress": 1})
		return mcp.NewToolResultText("echo " + req.GetString("text", "")), nil
	})
	srv.AddTool(mcp.NewTool("big"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(strings.Repeat("x", 200<<10)), nil
	})
	srv.AddTool(mcp.NewTool("ask"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		//lint:ignore SA1019 deprecated only for 2026-07-28; the session revisions still use it
		res, err := srv.RequestSampling(ctx, mcp.CreateMessageRequest{CreateMessageParams: mcp.CreateMessageParams{
			Messages: []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent("hi")}}, MaxTokens: 5}})
		if err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(res.Content.(mcp.TextContent).Text), nil
	})
	tr := serve(t, srv)
	notes := make(chan mcp.JSONRPCNotification, 4)
	c := client.NewClient(tr, client.WithSamplingHandler(sampler{}), client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	c.OnNotification(func(n mcp.JSONRPCNotification) { notes <- n })
	ctx := bounded(t)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "t", Version: "1"}
	if res, err := c.Initialize(ctx, init); err != nil || res.ServerInfo.Name != "s" {
		t.Fatalf("initialize: %+v %v", res, err)
	}
	call := func(name string, args map[string]any) string {
		t.Helper()
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = name, args
		res, err := c.CallTool(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res.Content[0].(mcp.TextContent).Text
	}
	if got := call("echo", map[string]any{"text": "a"}); got != "echo a" {
		t.Errorf("echo: %q", got)
	}
	select {
	case n := <-notes:
		if n.Method != "notifications/progress" {
			t.Errorf("notification %s, want the progress", n.Method)
		}
	case <-ctx.Done():
		t.Fatal("the server's notification never came")
	}
	if got := call("big", nil); len(got) != 200<<10 {
		t.Errorf("big: %d bytes, want %d", len(got), 200<<10)
	}
	if got := call("ask", nil); got != "sampled hi" {
		t.Errorf("ask: %q, want the client's sampling answer", got)
	}
	res, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId("x-2"), Method: "no/such"})
	if err != nil || res.Error == nil || res.Error.Code != mcp.METHOD_NOT_FOUND || res.ID.String() != mcp.NewRequestId("x-2").String() {
		t.Errorf("an unknown method: %+v %v, want its JSON-RPC error under its id", res, err)
	}
}

// peer is the child's side of a transport, scripted by the test.
type peer struct {
	lines *bufio.Reader // what the transport wrote
	out   io.WriteCloser
}

func newPeer(t *testing.T) (*Transport, *peer) {
	toClient, fromPeer := io.Pipe()
	toPeer, fromClient := io.Pipe()
	tr := New(toClient, fromClient, nil)
	t.Cleanup(func() { _ = tr.Close(); fromPeer.Close(); toPeer.Close() })
	return tr, &peer{lines: bufio.NewReader(toPeer), out: fromPeer}
}

func (p *peer) read(t *testing.T) string {
	t.Helper()
	line, err := p.lines.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return line
}

func (p *peer) write(t *testing.T, s string) {
	t.Helper()
	if _, err := io.WriteString(p.out, s+"\n"); err != nil {
		t.Fatal(err)
	}
}

// TestLines: what a child writes that is no answer to a request waiting
// is passed over — noise, an answer nobody waits for — and an answer is
// matched by its id as sent, however its members are spelled; the
// upstream's request gets METHOD_NOT_FOUND when nothing answers requests.
func TestLines(t *testing.T) {
	tr, p := newPeer(t)
	ctx := bounded(t)
	if err := tr.Start(ctx); err != nil {
		t.Fatal(err)
	}
	got := make(chan *transport.JSONRPCResponse, 1)
	go func() {
		res, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(7)), Method: "tools/call", Params: map[string]any{"name": "t"}})
		if err != nil {
			t.Error(err)
		}
		got <- res
	}()
	if line := p.read(t); !strings.Contains(line, `"id":7`) || !strings.Contains(line, `"method":"tools/call"`) {
		t.Fatalf("the request went out as %s", line)
	}
	p.write(t, `not json`)
	p.write(t, `{"jsonrpc":"2.0","id":8,"result":{}}`)
	p.write(t, `{"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{}}`)
	if line := p.read(t); !strings.Contains(line, `"id":"srv-1"`) || !strings.Contains(line, `-32601`) {
		t.Errorf("the upstream's request without a handler was answered %s", line)
	}
	p.write(t, `{"jsonrpc":"2.0","\u0069d":7,"result":{"content":[],"x":9007199254740993}}`)
	select {
	case res := <-got:
		if res == nil || string(res.Result) != `{"content":[],"x":9007199254740993}` || res.ID.String() != mcp.NewRequestId(int64(7)).String() {
			t.Errorf("the answer: %+v", res)
		}
	case <-ctx.Done():
		t.Fatal("the answer never reached its request")
	}
}

// TestMalformedError: an answer whose error is no JSON-RPC error object
// still answers its request with an internal error — a bare string's as
// its message (mcp-go reads one so), anything else saying what it is —
// rather than leaving it to wait for its timeout.
func TestMalformedError(t *testing.T) {
	tr, p := newPeer(t)
	ctx := bounded(t)
	if err := tr.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct{ errorMember, want string }{
		{`"boom"`, "boom"},
		{`42`, "not a JSON-RPC error object"},
		{`[{"code":1}]`, "not a JSON-RPC error object"},
	} {
		id := int64(9 + i)
		got := make(chan *transport.JSONRPCResponse, 1)
		go func() {
			res, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(id), Method: "tools/call", Params: map[string]any{"name": "t"}})
			if err != nil {
				t.Error(err)
			}
			got <- res
		}()
		p.read(t)
		p.write(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"error":%s}`, id, c.errorMember))
		select {
		case res := <-got:
			if res == nil || res.Error == nil || res.Error.Code != mcp.INTERNAL_ERROR || !strings.Contains(res.Error.Message, c.want) {
				t.Errorf("error %s: the answer %+v", c.errorMember, res)
			}
		case <-ctx.Done():
			t.Fatalf("error %s: the request was left waiting", c.errorMember)
		}
	}
}

// TestEnd: a request waiting when the child's output ends returns
// ErrTransportClosed, as does every request after it; one whose context
// ends returns its error, and its late answer goes nowhere.
func TestEnd(t *testing.T) {
	tr, p := newPeer(t)
	ctx := bounded(t)
	_ = tr.Start(ctx)
	short, cancel := context.WithCancel(ctx)
	errs := make(chan error, 1)
	go func() {
		_, err := tr.SendRequest(short, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(1)), Method: "ping"})
		errs <- err
	}()
	p.read(t)
	cancel()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Errorf("a request whose context ended: %v", err)
	}
	p.write(t, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	go func() {
		_, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(2)), Method: "ping"})
		errs <- err
	}()
	p.read(t)
	p.out.Close()
	if err := <-errs; !errors.Is(err, transport.ErrTransportClosed) {
		t.Errorf("a request waiting when the output ended: %v", err)
	}
	if _, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(3)), Method: "ping"}); !errors.Is(err, transport.ErrTransportClosed) {
		t.Errorf("a request after the end: %v", err)
	}
	if err := tr.SendNotification(ctx, mcp.JSONRPCNotification{JSONRPC: "2.0"}); !errors.Is(err, transport.ErrTransportClosed) {
		t.Errorf("a notification after the end: %v", err)
	}
	if tr.GetSessionId() != "" {
		t.Error("a stdio transport has a session id")
	}
}

// TestIDKey: an answer's id, however the upstream spelled it, finds the
// request it answers as mcp-go's transport finds it (RequestId.String).
func TestIDKey(t *testing.T) {
	for raw, id := range map[string]mcp.RequestId{
		`"chronicle-5"`:      mcp.NewRequestId("chronicle-5"),
		`"chronicle\u002d5"`: mcp.NewRequestId("chronicle-5"),
		`"q\"é"`:             mcp.NewRequestId(`q"é`),
		`7`:                  mcp.NewRequestId(int64(7)),
		`-3`:                 mcp.NewRequestId(int64(-3)),
		`7.0`:                mcp.NewRequestId(int64(7)),
	} {
		if got, want := idKey([]byte(raw)), id.String(); got != want {
			t.Errorf("id %s: key %q, want %q", raw, got, want)
		}
	}
	if got := idKey([]byte(`{}`)); got != "" {
		t.Errorf("an id that is no id: key %q", got)
	}
}

// TestRequestLine: a request goes out as one line: params the hub encoded
// (a json.RawMessage) as they are, compacted only when they hold a line
// break; other params encoded; none, no params member; a string id quoted,
// with escapes where it needs them.
func TestRequestLine(t *testing.T) {
	tr, p := newPeer(t)
	ctx := bounded(t)
	_ = tr.Start(ctx)
	for _, c := range []struct {
		id     mcp.RequestId
		params any
		want   string
	}{
		{mcp.NewRequestId(int64(1)), json.RawMessage(`{"arguments":{ "s" : "<&>" },"name":"t"}`), `{"jsonrpc":"2.0","id":1,"method":"m","params":{"arguments":{ "s" : "<&>" },"name":"t"}}`},
		{mcp.NewRequestId("h-2"), json.RawMessage("{\n\"a\": 1\r\n}"), `{"jsonrpc":"2.0","id":"h-2","method":"m","params":{"a":1}}`},
		{mcp.NewRequestId(int64(3)), map[string]any{"uri": "x"}, `{"jsonrpc":"2.0","id":3,"method":"m","params":{"uri":"x"}}`},
		{mcp.NewRequestId(int64(4)), nil, `{"jsonrpc":"2.0","id":4,"method":"m"}`},
		{mcp.NewRequestId("q\"é\n"), nil, `{"jsonrpc":"2.0","id":"q\"é\n","method":"m"}`}, // an id that needs escapes: encoded
	} {
		answered := make(chan error, 1)
		go func() {
			_, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: c.id, Method: "m", Params: c.params})
			answered <- err
		}()
		if line := p.read(t); line != c.want+"\n" {
			t.Errorf("the request went out as %s; want %s", line, c.want)
		}
		id, _ := json.Marshal(c.id)
		p.write(t, `{"jsonrpc":"2.0","id":`+string(id)+`,"result":{}}`)
		if err := <-answered; err != nil {
			t.Errorf("request %s: %v", id, err)
		}
	}
	if _, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(5)), Method: "m", Params: json.RawMessage("{\n")}); err == nil {
		t.Error("a request whose params are broken JSON was sent")
	}
}
