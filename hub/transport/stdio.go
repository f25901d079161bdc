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
	feed := &lineFeed{lines: make(chan []byte), done: make(chan struct{})}
	defer close(feed.done)
	r := &stdinReader{h: h, in: bufio.NewReaderSize(in, 64<<10), feed: feed}
	feed.begin = func() { go r.read() }
	err := s.Listen(ctx, feed, tw)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// A stdinReader reads what the client sends, one line at a time, notes
// each in the stdio session (its requests in flight stand in for the
// per-request context that HTTP has), serves the lines the hub answers
// itself (serveStdioLine) and hands the others to mcp-go, in order.
//
// The goroutine that reads a call the hub serves goes on to serve it, and
// a new one reads on (decision 0240): the call starts without waiting for
// another goroutine to be scheduled, which on two cores was a thread's
// wake-up on every call's way. One goroutine reads at a time.
type stdinReader struct {
	h    *Transport
	in   *bufio.Reader
	feed *lineFeed
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
			m := wire.Peek(line)
			r.see(m)
			if serve := r.h.serveStdioLine(line, m); serve != nil {
				go r.read()
				r.h.core.Run(serve)
				return
			}
			if !r.feed.give(bytes.Clone(line)) { // the reader's buffer is read again
				return
			}
		}
		if err != nil {
			r.feed.end(err)
			return
		}
	}
}

// see notes a line of the client's in its session, which mcp-go
// registered before it read the first line.
func (r *stdinReader) see(m wire.Message) {
	if cs := r.h.core.Sessions.Get(session.StdioID); cs != nil {
		r.h.core.Note(cs, m)
	}
}

// A lineFeed is what mcp-go's stdio server reads: the lines the hub
// leaves to it, one at a time, then what ended the input.
type lineFeed struct {
	begin func() // starts the reader: once mcp-go registered the session and reads
	once  sync.Once
	lines chan []byte
	done  chan struct{} // closed when mcp-go no longer reads
	err   error         // what ended the input, once lines is closed
	line  []byte        // what is left of the line being read
}

// give hands mcp-go a line; false when it no longer reads.
func (f *lineFeed) give(line []byte) bool {
	select {
	case f.lines <- line:
		return true
	case <-f.done:
		return false
	}
}

// end tells mcp-go that the input ended with err.
func (f *lineFeed) end(err error) {
	f.err = err
	close(f.lines)
}

func (f *lineFeed) Read(p []byte) (int, error) {
	f.once.Do(f.begin)
	for len(f.line) == 0 {
		line, ok := <-f.lines
		if !ok {
			return 0, f.err
		}
		f.line = line
	}
	n := copy(p, f.line)
	f.line = f.line[n:]
	return n, nil
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
