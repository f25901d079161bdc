package transport

import (
	"bufio"
	"bytes"
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
	r := &stdinReader{h: h, in: bufio.NewReaderSize(in, 64<<10)}
	r.feed = wire.NewFeed(func() { go r.read() })
	defer r.feed.Close()
	err := s.Listen(ctx, r.feed, tw)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// A stdinReader reads what the client sends, one line at a time, notes
// each in the stdio session (Core.Note: its requests in flight stand in
// for the per-request context that HTTP has), serves the lines the hub
// answers itself (serveStdioLine) and hands the others to mcp-go, in
// order, through a wire.Feed that mcp-go reads; it starts when mcp-go
// first reads, once it registered the stdio session.
//
// The goroutine that reads a call the hub serves goes on to serve it, and
// a new one reads on (decision 0240): the call starts without waiting for
// another goroutine to be scheduled, which on two cores was a thread's
// wake-up on every call's way. One goroutine reads at a time.
type stdinReader struct {
	h    *Transport
	in   *bufio.Reader
	feed *wire.Feed
}

// read reads lines until in ends, or until a line is a call this
// goroutine then serves.
func (r *stdinReader) read() {
	for {
		line, err := wire.ReadLine(r.in)
		if r.h.core.Service != "" && len(line) > 0 {
			line = exposeLine(r.h.core.Service, line)
		}
		if len(line) > 0 {
			line = bytes.Clone(line) // the reader's buffer is read again
			m := wire.Peek(line)
			// The session mcp-go registered before it read the first line.
			cs := r.h.core.Sessions.Get(session.StdioID)
			if cs != nil {
				r.h.core.Note(cs, m)
			}
			if serve := r.h.serveStdioLine(cs, line, m); serve != nil {
				go r.read()
				r.h.core.Run(serve)
				return
			}
			if !r.feed.Give(line) {
				return
			}
		}
		if err != nil {
			r.feed.End(err)
			return
		}
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
