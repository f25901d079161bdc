package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log"
	"sync"

	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/upstream"
)

// ServeStdio serves one client on in and out (chronicle serve --stdio, the
// entry link { hub = true } writes) until in ends or ctx is done. The
// session's scope is Options.Root, the client's working directory.
func (h *Hub) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	s := server.NewStdioServer(h.srv)
	s.SetErrorLogger(log.New(logWriter{h}, "", 0))
	t := &callTracker{h: h, pending: map[string]string{}}
	tw := &trackingWriter{t: t, w: out}
	h.stdioOut.Store(tw)
	err := s.Listen(ctx, &trackingReader{t: t, in: bufio.NewReaderSize(in, 64<<10)}, tw)
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

// A trackingReader hands mcp-go what the client sent, one line at a time,
// after the tracker has seen the line: no copy and no goroutine in between
// (mcp-go reads the lines one after another).
type trackingReader struct {
	t    *callTracker
	in   *bufio.Reader
	line []byte // what is left of the line being read
	err  error  // what ended the input, after line
}

func (r *trackingReader) Read(p []byte) (int, error) {
	if len(r.line) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		r.line, r.err = upstream.ReadLine(r.in)
		if len(r.line) > 0 {
			r.t.see(r.line)
		}
		if len(r.line) == 0 {
			return 0, r.err
		}
	}
	n := copy(p, r.line)
	r.line = r.line[n:]
	return n, nil
}

func (t *callTracker) see(line []byte) {
	m := peekMessage(line)
	t.h.noteCancelled(stdioSession, m)
	name := m.calledTool()
	if name == "" {
		return
	}
	t.mu.Lock()
	t.pending[string(m.id)] = name
	t.mu.Unlock()
	t.h.markCalling(name, 1)
}

func (t *callTracker) answered(m peeked) {
	if len(m.id) == 0 || m.hasMethod() {
		return
	}
	t.mu.Lock()
	name, ok := t.pending[string(m.id)]
	delete(t.pending, string(m.id))
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
	m := peekMessage(p)
	w.t.answered(m)
	if !w.t.h.keepPeeked(stdioSession, m) {
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
