package hub

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// ServeStdio serves one client on in and out (chronicle serve --stdio, the
// entry link { hub = true } writes) until in ends or ctx is done. The
// session's scope is Options.Root, the client's working directory.
func (h *Hub) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	s := server.NewStdioServer(h.srv)
	s.SetErrorLogger(log.New(logWriter{h}, "", 0))
	t := &callTracker{h: h, pending: map[string]string{}}
	pr, pw := io.Pipe()
	go t.copyIn(in, pw)
	tw := &trackingWriter{t: t, w: out}
	h.stdioOut.Store(tw)
	err := s.Listen(ctx, pr, tw)
	h.Close()
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// A callTracker marks stdio tools/call requests while they are in flight,
// standing in for the per-request context that HTTP has (see peek).
type callTracker struct {
	h       *Hub
	mu      sync.Mutex
	pending map[string]string // request id → tool
}

func (t *callTracker) copyIn(in io.Reader, w *io.PipeWriter) {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			t.see(line)
			if _, werr := w.Write(line); werr != nil {
				return
			}
		}
		if err != nil {
			w.CloseWithError(err)
			return
		}
	}
}

func (t *callTracker) see(line []byte) {
	t.h.noteCancelled(stdioSession, line)
	name := calledTool(line)
	if name == "" {
		return
	}
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(line, &m)
	t.mu.Lock()
	t.pending[string(m.ID)] = name
	t.mu.Unlock()
	t.h.markCalling(name, 1)
}

func (t *callTracker) answered(line []byte) {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return
	}
	t.mu.Lock()
	name, ok := t.pending[string(m.ID)]
	delete(t.pending, string(m.ID))
	t.mu.Unlock()
	if ok {
		t.h.markCalling(name, -1)
	}
}

// stdioSession is mcp-go's id of the one stdio session.
const stdioSession = "stdio"

// A trackingWriter sees each message the stdio server writes and applies
// the session's outbound filter (one message per line).
type trackingWriter struct {
	t  *callTracker
	mu sync.Mutex
	w  io.Writer
}

func (w *trackingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.t.answered(p)
	if !w.t.h.keep(stdioSession, bytes.TrimSpace(p)) {
		return len(p), nil
	}
	return w.w.Write(p)
}

// logWriter sends mcp-go's stdio errors to the hub's log, never stdout.
type logWriter struct{ h *Hub }

func (l logWriter) Write(p []byte) (int, error) {
	l.h.log.Warn("stdio", "error", l.h.masker.Text(string(p)))
	return len(p), nil
}

// notify writes a notification to the stdio client at once, in order with
// the responses: mcp-go queues notifications on a goroutine of their own,
// so a progress notification sent just before a call's result could
// otherwise reach the client after it.
func (w *trackingWriter) notify(method string, params any) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
