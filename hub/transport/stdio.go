package transport

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log"
	"sync"

	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// ServeStdio serves one client on in and out (chronicle serve --stdio, the
// entry link { hub = true } writes) until in ends or ctx is done. The
// session's scope is Options.Root, the client's working directory.
func (h *Transport) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	s := server.NewStdioServer(h.core.Server)
	s.SetErrorLogger(log.New(logWriter{h}, "", 0))
	tw := &trackingWriter{h: h, w: out}
	h.stdioOut.Store(tw)
	err := s.Listen(ctx, &trackingReader{h: h, in: bufio.NewReaderSize(in, 64<<10)}, tw)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// A trackingReader hands mcp-go what the client sent, one line at a time,
// after the stdio session has noted it (its requests in flight stand in for
// the per-request context that HTTP has): no copy and no goroutine in
// between (mcp-go reads the lines one after another).
type trackingReader struct {
	h    *Transport
	in   *bufio.Reader
	line []byte // what is left of the line being read
	err  error  // what ended the input, after line
}

func (r *trackingReader) Read(p []byte) (int, error) {
	for len(r.line) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		r.line, r.err = wire.ReadLine(r.in)
		if r.h.core.Service != "" && len(r.line) > 0 {
			r.line = exposeLine(r.h.core.Service, r.line)
		}
		if len(r.line) > 0 {
			m := wire.Peek(r.line)
			r.see(m)
			if r.h.serveStdioLine(r.line, m) {
				r.line = nil // the hub answers it (taskanswer.go)
				continue
			}
		}
		if len(r.line) == 0 {
			return 0, r.err
		}
	}
	n := copy(p, r.line)
	r.line = r.line[n:]
	return n, nil
}

// see notes a line of the client's in its session, which mcp-go
// registered before it read the first line.
func (r *trackingReader) see(m wire.Message) {
	if cs := r.h.core.Sessions.Get(session.StdioID); cs != nil {
		r.h.core.Note(cs, m)
	}
}

// A trackingWriter sees each message the stdio server writes and applies
// the session's outbound filter (one message per line).
type trackingWriter struct {
	h  *Transport
	mu sync.Mutex
	w  io.Writer
}

func (w *trackingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.h.core.Keep(w.h.core.Sessions.Get(session.StdioID), wire.Peek(p)) {
		return len(p), nil
	}
	return w.w.Write(p)
}

// logWriter sends mcp-go's stdio errors to the hub's log, never stdout.
type logWriter struct{ h *Transport }

func (l logWriter) Write(p []byte) (int, error) {
	l.h.core.Log.Warn("stdio", "error", l.h.core.Masker.Text(string(p)))
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

// NotifyStdio writes a notification to the stdio client at once, in order
// with the responses (see trackingWriter.notify); false when no stdio
// client is served.
func (h *Transport) NotifyStdio(method string, params any) bool {
	w := h.stdioOut.Load()
	if w == nil {
		return false
	}
	_ = w.notify(method, params)
	return true
}
