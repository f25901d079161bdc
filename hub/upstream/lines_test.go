package upstream

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// A fakeChild is the other end of a lineTransport: what the transport
// writes comes out of sent, and what the test writes to stdout the
// transport reads.
type fakeChild struct {
	sent   *bufio.Reader
	stdout *io.PipeWriter
}

func newFakeChild(t *testing.T) (*lineTransport, *fakeChild) {
	t.Helper()
	outR, outW := io.Pipe()
	inR, inW := io.Pipe()
	tr := newLineTransport(outR, inW)
	ctx, cancel := context.WithCancel(context.Background())
	if err := tr.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); outW.Close(); tr.Close(); inR.Close() })
	return tr, &fakeChild{sent: bufio.NewReader(inR), stdout: outW}
}

func (c *fakeChild) next(t *testing.T) map[string]any {
	t.Helper()
	line, err := c.sent.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return m
}

func (c *fakeChild) say(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(c.stdout, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func TestLineTransportMatchesAnswersByID(t *testing.T) {
	tr, child := newFakeChild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	type answer struct {
		resp *transport.JSONRPCResponse
		err  error
	}
	got := map[string]chan answer{}
	for _, id := range []string{"a", "b"} {
		got[id] = make(chan answer, 1)
		go func() {
			resp, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(id), Method: "tools/call", Params: map[string]any{"name": id}})
			got[id] <- answer{resp, err}
		}()
	}
	child.next(t)
	child.next(t)
	// Answered in the other order; b's result spelled as the child spelled
	// it, a's an error, and a line that is no JSON at all in between.
	child.say(t, `{"jsonrpc":"2.0","id":"b","result":{"content":[{"type":"text","text":"\u00e9 b"}] }}`)
	child.say(t, `not json`)
	child.say(t, `{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"no such tool","data":{"x":1}}}`)
	b := <-got["b"]
	if b.err != nil || string(b.resp.Result) != `{"content":[{"type":"text","text":"\u00e9 b"}] }` || b.resp.Error != nil {
		t.Errorf("b: %+v, %v", b.resp, b.err)
	}
	a := <-got["a"]
	if a.err != nil || a.resp.Error == nil || a.resp.Error.Code != -32602 || a.resp.Error.Message != "no such tool" || a.resp.Result != nil {
		t.Errorf("a: %+v, %v", a.resp, a.err)
	}
	// A member name spelled with an escape is read as encoding/json reads it.
	c := make(chan answer, 1)
	go func() {
		resp, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId(int64(7)), Method: "ping"})
		c <- answer{resp, err}
	}()
	child.next(t)
	child.say(t, `{"jsonrpc":"2.0","id":7,"re\u0073ult":{}}`)
	if r := <-c; r.err != nil || string(r.resp.Result) != `{}` {
		t.Errorf("escaped name: %+v, %v", r.resp, r.err)
	}
}

func TestLineTransportNotificationsAndRequestsOfTheChild(t *testing.T) {
	tr, child := newFakeChild(t)
	notes := make(chan mcp.JSONRPCNotification, 1)
	tr.SetNotificationHandler(func(n mcp.JSONRPCNotification) { notes <- n })
	tr.SetRequestHandler(func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		if req.Method == "roots/list" {
			return transport.NewJSONRPCResultResponse(req.ID, json.RawMessage(`{"roots":[]}`)), nil
		}
		return nil, errors.New("refused")
	})
	child.say(t, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}`)
	select {
	case n := <-notes:
		if n.Method != "notifications/progress" || n.Params.AdditionalFields["progressToken"] != "p" {
			t.Errorf("notification: %+v", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notification")
	}
	child.say(t, `{"jsonrpc":"2.0","id":1,"method":"roots/list"}`)
	if m := child.next(t); m["id"] != 1.0 || m["result"] == nil {
		t.Errorf("answer to roots/list: %v", m)
	}
	child.say(t, `{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{}}`)
	if m := child.next(t); m["id"] != 2.0 || m["error"].(map[string]any)["message"] != "refused" {
		t.Errorf("answer to sampling: %v", m)
	}
}

func TestLineTransportEndsWithStdout(t *testing.T) {
	tr, child := newFakeChild(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	errs := make(chan error, 1)
	go func() {
		_, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId("x"), Method: "ping"})
		errs <- err
	}()
	child.next(t)
	child.stdout.Close()
	if err := <-errs; !errors.Is(err, transport.ErrTransportClosed) {
		t.Errorf("a request in flight when stdout ended: %v", err)
	}
	if _, err := tr.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: mcp.NewRequestId("y"), Method: "ping"}); !errors.Is(err, transport.ErrTransportClosed) {
		t.Errorf("a request after: %v", err)
	}
	if err := tr.SendNotification(ctx, mcp.JSONRPCNotification{JSONRPC: "2.0"}); !errors.Is(err, transport.ErrTransportClosed) {
		t.Errorf("a notification after: %v", err)
	}
}
