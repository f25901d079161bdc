package proc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// maxNote bounds how much of a child's own output is quoted in a status.
const maxNote = 160

// maxStderrLine bounds one logged line of a child's stderr; the rest of the
// line is dropped so that a child writing without newlines cannot grow the
// hub's memory.
const maxStderrLine = 16 << 10

// A Child is a running stdio upstream: a process leading its own process
// group, whose stdout carries JSON-RPC and whose stderr goes to the log.
type Child struct {
	service string
	cmd     *exec.Cmd
	PID     int
	Stdin   io.WriteCloser
	// Stdout is the child's Stdout with every line that is not JSON-RPC
	// taken out and remembered as garbage.
	Stdout io.Reader
	// Done is closed once the process has been reaped and the rest of its
	// group killed.
	Done    chan struct{}
	waitErr error
	// readers counts the readers of stdout and stderr still reading;
	// drained is closed when the last one has seen the end of its pipe.
	readers atomic.Int32
	drained chan struct{}
	files   []*os.File // the hub's ends of stdout and stderr

	mu         sync.Mutex
	garbage    string // the first line on stdout that was not JSON-RPC
	lastStderr string
}

// Start starts cmd in its own process group and wires its streams.
func Start(service string, cmd *exec.Cmd, m *mask.Masker, log *slog.Logger) (*Child, error) {
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeFiles(outR, outW)
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	closeFiles(outW, errW) // the child holds its own copies
	if err != nil {
		closeFiles(outR, errR)
		return nil, err
	}
	c := &Child{
		service: service,
		cmd:     cmd,
		PID:     cmd.Process.Pid,
		Stdin:   stdin,
		Done:    make(chan struct{}),
		drained: make(chan struct{}),
		files:   []*os.File{outR, errR},
	}
	c.Stdout = &jsonLines{c: c, in: bufio.NewReaderSize(outR, 64<<10), masker: m}
	c.readers.Store(2) // stdout's reader is the transport's, done at the end of stdout
	go c.logStderr(errR, m, log)
	go c.wait()
	return c, nil
}

func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// wait reaps the process, then kills whatever is left of its group so that
// no grandchild outlives it.
func (c *Child) wait() {
	c.waitErr = c.cmd.Wait()
	signalGroup(c.PID, sigKill)
	// Give the readers a moment to take in the last lines, then close the
	// pipes, which also ends the readers if a process outside the group
	// still holds them open.
	select {
	case <-c.drained:
	case <-time.After(200 * time.Millisecond):
	}
	closeFiles(c.files...)
	close(c.Done)
}

// readerDone notes that a reader saw the end of its pipe. (A reader the
// transport stops calling never does: wait then closes the pipes after its
// moment, and nothing is left waiting for the reader.)
func (c *Child) readerDone() {
	if c.readers.Add(-1) == 0 {
		close(c.drained)
	}
}

// A jsonLines reader gives the transport the child's stdout line by line,
// JSON-RPC lines only, and keeps the first line that is anything else,
// which explains a child that never answers. It reads as the transport
// reads: the lines go from the pipe's buffer to the transport's, with no
// goroutine and no copy in between.
type jsonLines struct {
	c      *Child
	in     *bufio.Reader
	masker *mask.Masker
	line   []byte // what is left of the JSON-RPC line being read, without its end
	nl     bool   // the line's end is still to be read
	err    error  // what ended stdout
	ended  sync.Once
}

func (r *jsonLines) Read(p []byte) (int, error) {
	for len(r.line) == 0 && !r.nl {
		if r.err != nil {
			r.ended.Do(r.c.readerDone)
			return 0, r.err
		}
		var line []byte
		line, r.err = wire.ReadLine(r.in)
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			if trimmed[0] == '{' || trimmed[0] == '[' {
				r.line, r.nl = trimmed, true
			} else {
				r.c.noteGarbage(r.masker.Text(string(trimmed)))
			}
		}
	}
	if len(p) == 0 {
		return 0, nil
	}
	if len(r.line) == 0 {
		p[0], r.nl = '\n', false
		return 1, nil
	}
	n := copy(p, r.line)
	r.line = r.line[n:]
	return n, nil
}

func (c *Child) noteGarbage(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.garbage == "" {
		c.garbage = clip(line)
	}
}

// logStderr writes each line of the child's stderr to the log.
func (c *Child) logStderr(r io.Reader, m *mask.Masker, log *slog.Logger) {
	defer c.readerDone()
	br := bufio.NewReaderSize(r, 4<<10)
	for {
		line, err := readLine(br, maxStderrLine)
		if line != "" {
			line = m.Text(line)
			log.Info(c.service+": "+line, "service", c.service, "stream", "stderr")
			c.mu.Lock()
			c.lastStderr = clip(line)
			c.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// readLine reads one line without its end, keeping at most max bytes of it.
func readLine(br *bufio.Reader, max int) (string, error) {
	var b []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if room := max - len(b); room > 0 {
			b = append(b, chunk[:min(len(chunk), room)]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return strings.TrimRight(string(b), "\r\n"), err
	}
}

func clip(s string) string {
	if len(s) > maxNote {
		return s[:maxNote] + "…"
	}
	return s
}

// Stop ends the child: its stdin is closed and its group is asked to
// terminate, then killed after grace.
func (c *Child) Stop(grace time.Duration) {
	_ = c.Stdin.Close()
	signalGroup(c.PID, sigTerm)
	select {
	case <-c.Done:
	case <-time.After(grace):
		signalGroup(c.PID, sigKill)
		<-c.Done
	}
}

// Exited reports whether the process has ended.
func (c *Child) Exited() bool {
	select {
	case <-c.Done:
		return true
	default:
		return false
	}
}

// Settle waits a moment for a child whose stream closed under err, so that
// a message about it can say how it ended.
func (c *Child) Settle(err error) {
	if !errors.Is(err, transport.ErrTransportClosed) {
		return
	}
	select {
	case <-c.Done:
	case <-time.After(time.Second):
	}
}

// Describe says how the child ended (or that it is still running), with
// what it last wrote to stderr and any garbage it wrote to stdout.
func (c *Child) Describe() string {
	var b strings.Builder
	if c.Exited() {
		state := "exited"
		if ps := c.cmd.ProcessState; ps != nil {
			state = fmt.Sprintf("exited (%s)", ps)
		} else if c.waitErr != nil {
			state = fmt.Sprintf("exited (%v)", c.waitErr)
		}
		b.WriteString(state)
	} else {
		b.WriteString("was still running")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.garbage != "" {
		fmt.Fprintf(&b, "; it wrote non-JSON-RPC text to stdout: %q", c.garbage)
	}
	if c.lastStderr != "" {
		fmt.Fprintf(&b, "; last stderr line: %q", c.lastStderr)
	}
	return b.String()
}
