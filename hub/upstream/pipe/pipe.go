package pipe

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/wire"
)

// A Transport speaks JSON-RPC over a child's stdin (out) and stdout (in).
type Transport struct {
	in  *bufio.Reader
	out io.WriteCloser
	log *slog.Logger

	wmu sync.Mutex   // one line at a time on out
	buf bytes.Buffer // the line being written; guarded by wmu

	mu      sync.Mutex
	waiting map[string]waiter // the request's id (RequestId.String) → who waits for its answer
	ctx     context.Context   // Start's, for the upstream's requests

	hmu    sync.RWMutex // guards the handlers
	onNote func(mcp.JSONRPCNotification)
	onReq  transport.RequestHandler

	start    sync.Once     // of the reader
	done     chan struct{} // closed when the output ends or Close is called
	doneOnce sync.Once
	shut     sync.Once // the child's input closed
}

// New returns a transport that reads the child's output from in and
// writes to its input out; log gets what cannot be read or written.
func New(in io.Reader, out io.WriteCloser, log *slog.Logger) *Transport {
	return &Transport{in: bufio.NewReaderSize(in, 64<<10), out: out, log: log,
		waiting: map[string]waiter{}, ctx: context.Background(), done: make(chan struct{})}
}

// A waiter is a request waiting for its answer.
type waiter struct {
	id     mcp.RequestId
	answer chan *transport.JSONRPCResponse
}

var (
	_ transport.Interface              = (*Transport)(nil)
	_ transport.BidirectionalInterface = (*Transport)(nil)
)

// Start starts reading the child's output, once; ctx is the context the
// upstream's requests are handled in.
func (t *Transport) Start(ctx context.Context) error {
	t.start.Do(func() {
		t.mu.Lock()
		t.ctx = ctx
		t.mu.Unlock()
		go t.read()
	})
	return nil
}

// SendRequest writes request and waits for its answer, the transport's
// end, or ctx.
func (t *Transport) SendRequest(ctx context.Context, request transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	select {
	case <-t.done:
		return nil, transport.ErrTransportClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	key := request.ID.String()
	answer := make(chan *transport.JSONRPCResponse, 1)
	t.mu.Lock()
	t.waiting[key] = waiter{id: request.ID, answer: answer}
	t.mu.Unlock()
	forget := func() {
		t.mu.Lock()
		delete(t.waiting, key)
		t.mu.Unlock()
	}
	if err := t.writeRequest(request); err != nil {
		forget()
		return nil, fmt.Errorf("failed to write request: %w", err)
	}
	select {
	case res := <-answer:
		return res, nil
	case <-t.done:
		select {
		case res := <-answer: // answered just before the output ended
			return res, nil
		default:
		}
		forget()
		return nil, transport.ErrTransportClosed
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	}
}

// SendNotification writes a notification.
func (t *Transport) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	select {
	case <-t.done:
		return transport.ErrTransportClosed
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	if err := t.write(n); err != nil {
		return fmt.Errorf("failed to write notification: %w", err)
	}
	return nil
}

// write encodes msg as one line on the child's input.
func (t *Transport) write(msg any) error {
	t.wmu.Lock()
	defer t.wmu.Unlock()
	t.buf.Reset()
	if err := json.NewEncoder(&t.buf).Encode(msg); err != nil { // with its newline
		return err
	}
	return t.flush()
}

// writeRequest writes a request as one line on the child's input, its
// params encoded once (wire.Encode): the hub's own encoding of a call's
// params holds the client's arguments as they came, and encoding/json
// would scan them all again.
func (t *Transport) writeRequest(r transport.JSONRPCRequest) error {
	id, err := json.Marshal(r.ID)
	if err != nil {
		return err
	}
	method, err := json.Marshal(r.Method)
	if err != nil {
		return err
	}
	var params json.RawMessage
	if r.Params != nil {
		if params, err = wire.Encode(r.Params); err != nil {
			return err
		}
	}
	t.wmu.Lock()
	defer t.wmu.Unlock()
	t.buf.Reset()
	t.buf.WriteString(`{"jsonrpc":"2.0","id":`)
	t.buf.Write(id)
	t.buf.WriteString(`,"method":`)
	t.buf.Write(method)
	if params != nil {
		t.buf.WriteString(`,"params":`)
		t.buf.Write(params)
	}
	t.buf.WriteString("}\n")
	return t.flush()
}

// flush writes the line in t.buf (t.wmu held).
func (t *Transport) flush() error {
	_, err := t.out.Write(t.buf.Bytes())
	if t.buf.Cap() > 1<<20 {
		t.buf = bytes.Buffer{} // a large request's buffer is not kept
	}
	return err
}

// SetNotificationHandler sets what gets the upstream's notifications.
func (t *Transport) SetNotificationHandler(handler func(mcp.JSONRPCNotification)) {
	t.hmu.Lock()
	defer t.hmu.Unlock()
	t.onNote = handler
}

// SetRequestHandler sets what answers the upstream's requests (sampling,
// elicitation, roots).
func (t *Transport) SetRequestHandler(handler transport.RequestHandler) {
	t.hmu.Lock()
	defer t.hmu.Unlock()
	t.onReq = handler
}

// Close ends the transport: waiting requests return, and the child's
// input is closed (the child's end is the process's owner's).
func (t *Transport) Close() error {
	t.end()
	var err error
	t.shut.Do(func() {
		if cerr := t.out.Close(); cerr != nil {
			err = fmt.Errorf("failed to close stdin: %w", cerr)
		}
	})
	return err
}

func (t *Transport) end() { t.doneOnce.Do(func() { close(t.done) }) }

// GetSessionId is "": stdio has no session id.
func (t *Transport) GetSessionId() string { return "" }

// read reads the child's output until it ends.
func (t *Transport) read() {
	defer t.end()
	for {
		line, err := wire.ReadLine(t.in)
		if len(bytes.TrimSpace(line)) > 0 {
			t.take(line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) && t.log != nil {
				t.log.Debug("reading the upstream's output", "error", err)
			}
			return
		}
	}
}

// take handles one line: an answer goes to its request, a notification
// or a request to the client's handlers. A line that is no JSON-RPC
// message is skipped, as mcp-go's transport skips it.
func (t *Transport) take(line []byte) {
	var id, method, result, rpcErr []byte
	if !wire.ScanObject(line, func(key, value []byte) {
		switch {
		case wire.KeyIs(key, "id"):
			id = value
		case wire.KeyIs(key, "method"):
			method = value
		case wire.KeyIs(key, "result"):
			result = value
		case wire.KeyIs(key, "error"):
			rpcErr = value
		}
	}) {
		t.takeDecoded(line)
		return
	}
	if len(method) > 0 && !bytes.Equal(method, []byte("null")) {
		t.takeMessage(line, len(id) > 0 && !bytes.Equal(id, []byte("null")))
		return
	}
	res := &transport.JSONRPCResponse{JSONRPC: mcp.JSONRPC_VERSION}
	if len(rpcErr) > 0 && !bytes.Equal(rpcErr, []byte("null")) {
		res.Error = new(mcp.JSONRPCErrorDetails)
		if json.Unmarshal(rpcErr, res.Error) != nil {
			// Answered, though not as JSON-RPC has it: said so, rather
			// than the request left waiting for its timeout.
			res.Error = &mcp.JSONRPCErrorDetails{Code: mcp.INTERNAL_ERROR, Message: "the upstream answered with an error that is not a JSON-RPC error object"}
		}
	} else if len(result) > 0 {
		res.Result = bytes.Clone(result) // the line is in the reader's buffer
	}
	t.answer(idKey(id), res)
}

// idKey is the key of an answer's id (raw JSON) among the requests
// waiting: its RequestId.String(), the key mcp-go's transport matches by,
// read without decoding a plain string or integer.
func idKey(raw []byte) string {
	if len(raw) > 0 && raw[0] == '"' {
		return "string:" + wire.StringValue(raw)
	}
	if len(raw) > 0 && bytes.IndexFunc(raw, func(r rune) bool { return (r < '0' || r > '9') && r != '-' }) < 0 {
		return "int64:" + string(raw)
	}
	var id mcp.RequestId
	if json.Unmarshal(raw, &id) != nil {
		return ""
	}
	return id.String()
}

// takeDecoded handles a line the scan could not read (a member name
// spelled with escapes; not an object) with encoding/json.
func (t *Transport) takeDecoded(line []byte) {
	var m struct {
		ID     json.RawMessage          `json:"id"`
		Method string                   `json:"method"`
		Result json.RawMessage          `json:"result"`
		Error  *mcp.JSONRPCErrorDetails `json:"error"`
	}
	if json.Unmarshal(line, &m) != nil {
		return
	}
	if m.Method != "" {
		t.takeMessage(line, len(m.ID) > 0 && string(m.ID) != "null")
		return
	}
	t.answer(idKey(bytes.TrimSpace(m.ID)), &transport.JSONRPCResponse{JSONRPC: mcp.JSONRPC_VERSION, Result: m.Result, Error: m.Error})
}

// answer hands res to the request whose id's key is key.
func (t *Transport) answer(key string, res *transport.JSONRPCResponse) {
	t.mu.Lock()
	w, ok := t.waiting[key]
	delete(t.waiting, key)
	t.mu.Unlock()
	if ok {
		res.ID = w.id
		w.answer <- res
	}
}

// takeMessage hands a notification to the notification handler, or runs
// a request of the upstream's on a goroutine of its own and writes its
// answer. line is decoded before it returns (it is in the reader's
// buffer).
func (t *Transport) takeMessage(line []byte, request bool) {
	if !request {
		var n mcp.JSONRPCNotification
		if json.Unmarshal(line, &n) != nil {
			return
		}
		t.hmu.RLock()
		if t.onNote != nil {
			t.onNote(n)
		}
		t.hmu.RUnlock()
		return
	}
	var req transport.JSONRPCRequest
	if json.Unmarshal(line, &req) != nil {
		return
	}
	t.hmu.RLock()
	handler := t.onReq
	t.hmu.RUnlock()
	if handler == nil {
		t.reply(transport.NewJSONRPCErrorResponse(req.ID, mcp.METHOD_NOT_FOUND, "No request handler configured", nil))
		return
	}
	t.mu.Lock()
	ctx := t.ctx
	t.mu.Unlock()
	go func() {
		if err := ctx.Err(); err != nil {
			t.reply(transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, err.Error(), nil))
			return
		}
		res, err := handler(ctx, req)
		switch {
		case err != nil:
			t.reply(transport.NewJSONRPCErrorResponse(req.ID, mcp.INTERNAL_ERROR, err.Error(), nil))
		case res != nil:
			t.reply(res)
		}
	}()
}

// reply writes the answer to a request of the upstream's.
func (t *Transport) reply(res *transport.JSONRPCResponse) {
	if err := t.write(res); err != nil && t.log != nil {
		t.log.Debug("answering the upstream", "error", err)
	}
}
