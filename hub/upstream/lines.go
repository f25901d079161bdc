package upstream

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/wire"
)

// A lineTransport is the client side of a stdio child's JSON-RPC, one
// message per line: mcp-go's stdio transport (transport.NewIO) with the
// same behaviour — requests matched to answers by id, notifications to one
// handler, the child's requests served each on a goroutine, everything
// unblocked with transport.ErrTransportClosed when stdout ends or the
// transport is closed — but each line the child writes is decoded once.
// mcp-go's decodes a line two or three times (its method and id, then the
// whole message) and copies it into a string first; here the hub's peek
// (hub/wire) finds the id, method, result and error in the line where it
// lies, and only the part the reader needs is decoded or copied: a
// response's result stays raw, as Upstream.Request returns it.
type lineTransport struct {
	in  *bufio.Reader  // the child's stdout, JSON-RPC lines only (proc.Child.Stdout)
	out io.WriteCloser // the child's stdin

	writeMu sync.Mutex // one message per write, whole

	mu      sync.Mutex
	waiting map[string]chan *transport.JSONRPCResponse // by mcp.RequestId.String()
	ctx     context.Context                            // Start's, for the child's requests
	started bool

	done      chan struct{} // closed when stdout ended or Close was called
	closeOnce sync.Once
	stdinOnce sync.Once

	handlerMu      sync.RWMutex
	onNotification func(mcp.JSONRPCNotification)
	onRequest      transport.RequestHandler
}

var _ transport.BidirectionalInterface = (*lineTransport)(nil)

func newLineTransport(stdout io.Reader, stdin io.WriteCloser) *lineTransport {
	return &lineTransport{
		in:      bufio.NewReaderSize(stdout, 64<<10),
		out:     stdin,
		waiting: map[string]chan *transport.JSONRPCResponse{},
		ctx:     context.Background(),
		done:    make(chan struct{}),
	}
}

// Start reads the child's stdout until it ends; ctx is what the child's
// requests are served within.
func (t *lineTransport) Start(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.started {
		return nil
	}
	t.started, t.ctx = true, ctx
	go t.read()
	return nil
}

func (t *lineTransport) read() {
	for {
		select {
		case <-t.done:
			return
		default:
		}
		line, err := wire.ReadLine(t.in)
		if len(line) > 0 {
			t.dispatch(line)
		}
		if err != nil {
			t.closeDone()
			return
		}
	}
}

// dispatch hands one line on; line is valid only until the next read.
func (t *lineTransport) dispatch(line []byte) {
	m := wire.Peek(line)
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	if method := wire.StringValue(m.Method); method != "" {
		if !hasID {
			var n mcp.JSONRPCNotification
			if json.Unmarshal(line, &n) != nil {
				return
			}
			t.handlerMu.RLock()
			if t.onNotification != nil {
				t.onNotification(n)
			}
			t.handlerMu.RUnlock()
			return
		}
		var req transport.JSONRPCRequest
		if json.Unmarshal(line, &req) == nil {
			t.serve(req)
			return
		}
	}
	resp, ok := decodeResponse(line, m)
	if !ok {
		return
	}
	key := resp.ID.String()
	t.mu.Lock()
	ch := t.waiting[key]
	delete(t.waiting, key)
	t.mu.Unlock()
	if ch != nil {
		ch <- resp
	}
}

// decodeResponse reads a response: its id and error decoded, its result
// copied as it was sent. A line the peek cannot read member by member (a
// name spelled with escapes) is decoded whole, as mcp-go does.
func decodeResponse(line []byte, m wire.Message) (*transport.JSONRPCResponse, bool) {
	resp := &transport.JSONRPCResponse{}
	var version, result, rpcErr []byte
	if !wire.ScanObject(line, func(key, value []byte) {
		switch {
		case wire.KeyIs(key, "jsonrpc"):
			version = value
		case wire.KeyIs(key, "result"):
			result = value
		case wire.KeyIs(key, "error"):
			rpcErr = value
		}
	}) {
		return resp, json.Unmarshal(line, resp) == nil
	}
	if version != nil && json.Unmarshal(version, &resp.JSONRPC) != nil {
		return nil, false
	}
	if m.ID != nil && json.Unmarshal(m.ID, &resp.ID) != nil {
		return nil, false
	}
	if string(rpcErr) != "null" && rpcErr != nil {
		resp.Error = &mcp.JSONRPCErrorDetails{}
		if json.Unmarshal(rpcErr, resp.Error) != nil {
			return nil, false
		}
	}
	if result != nil {
		resp.Result = append(json.RawMessage(nil), result...)
	}
	return resp, true
}

// serve answers a request of the child's on a goroutine of its own, so
// that reading goes on (the answer may need the client's answer first).
func (t *lineTransport) serve(req transport.JSONRPCRequest) {
	t.handlerMu.RLock()
	handler := t.onRequest
	t.handlerMu.RUnlock()
	if handler == nil {
		t.respond(*transport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND, "No request handler configured", nil))
		return
	}
	t.mu.Lock()
	ctx := t.ctx
	t.mu.Unlock()
	go func() {
		if err := ctx.Err(); err != nil {
			t.respond(*transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, err.Error(), nil))
			return
		}
		resp, err := handler(ctx, req)
		switch {
		case err != nil:
			t.respond(*transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, err.Error(), nil))
		case resp != nil:
			t.respond(*resp)
		}
	}()
}

func (t *lineTransport) respond(resp transport.JSONRPCResponse) {
	b, err := json.Marshal(resp)
	if err != nil {
		slog.Default().Error("Error marshaling response", "err", err)
		return
	}
	if err := t.write(b); err != nil {
		slog.Default().Error("Error writing response", "err", err)
	}
}

// write sends one message and its newline in one write.
func (t *lineTransport) write(msg []byte) error {
	msg = append(msg, '\n')
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	_, err := t.out.Write(msg)
	return err
}

// SendRequest sends a request and waits for its answer, the end of ctx,
// or the end of the transport.
func (t *lineTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	select {
	case <-t.done:
		return nil, transport.ErrTransportClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("failed to marshal request: %w", err)
	}
	key := req.ID.String()
	ch := make(chan *transport.JSONRPCResponse, 1)
	t.mu.Lock()
	t.waiting[key] = ch
	t.mu.Unlock()
	forget := func() {
		t.mu.Lock()
		if t.waiting[key] == ch {
			delete(t.waiting, key)
		}
		t.mu.Unlock()
	}
	if err := t.write(b); err != nil {
		forget()
		return nil, fmt.Errorf("failed to write request: %w", err)
	}
	select {
	case resp := <-ch:
		return resp, nil
	case <-t.done:
		// An answer read just before stdout ended is still delivered.
		select {
		case resp := <-ch:
			return resp, nil
		default:
		}
		forget()
		return nil, transport.ErrTransportClosed
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	}
}

// SendNotification sends a notification.
func (t *lineTransport) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	select {
	case <-t.done:
		return transport.ErrTransportClosed
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	b, err := json.Marshal(n)
	if err != nil {
		return fmt.Errorf("failed to marshal notification: %w", err)
	}
	if err := t.write(b); err != nil {
		return fmt.Errorf("failed to write notification: %w", err)
	}
	return nil
}

func (t *lineTransport) SetNotificationHandler(handler func(mcp.JSONRPCNotification)) {
	t.handlerMu.Lock()
	defer t.handlerMu.Unlock()
	t.onNotification = handler
}

func (t *lineTransport) SetRequestHandler(handler transport.RequestHandler) {
	t.handlerMu.Lock()
	defer t.handlerMu.Unlock()
	t.onRequest = handler
}

// Close unblocks every request waiting and closes the child's stdin (the
// child's process is proc.Child's to end).
func (t *lineTransport) Close() error {
	t.closeDone()
	var err error
	t.stdinOnce.Do(func() {
		if cerr := t.out.Close(); cerr != nil {
			err = fmt.Errorf("failed to close stdin: %w", cerr)
		}
	})
	return err
}

func (t *lineTransport) closeDone() { t.closeOnce.Do(func() { close(t.done) }) }

// GetSessionId is "": a stdio connection has no session id.
func (t *lineTransport) GetSessionId() string { return "" }
