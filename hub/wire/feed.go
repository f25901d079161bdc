package wire

import "sync"

// A Feed is a reader of lines handed to it one at a time, in order, by
// whoever reads the input (the stdio transport hands mcp-go's stdio server
// the lines it leaves to it). The reader of the input starts on the first
// Read (start); Close tells it nobody reads any more.
type Feed struct {
	start func()
	once  sync.Once
	lines chan []byte
	done  chan struct{} // closed by Close
	err   error         // what ended the input, once lines is closed
	line  []byte        // what is left of the line being read
}

// NewFeed returns a Feed whose first Read runs start.
func NewFeed(start func()) *Feed {
	return &Feed{start: start, lines: make(chan []byte), done: make(chan struct{})}
}

// Give hands the reader a line, once it reads it; false when the Feed is
// closed.
func (f *Feed) Give(line []byte) bool {
	select {
	case f.lines <- line:
		return true
	case <-f.done:
		return false
	}
}

// End ends the input with err, which Read returns after the lines given.
func (f *Feed) End(err error) {
	f.err = err
	close(f.lines)
}

// Close tells whoever gives lines that nobody reads them any more.
func (f *Feed) Close() { close(f.done) }

func (f *Feed) Read(p []byte) (int, error) {
	f.once.Do(f.start)
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
