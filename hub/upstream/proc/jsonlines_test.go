package proc

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/chronicle-dev/chronicle/engine/mask"
)

// TestJSONLines checks what the transport reads of a child's stdout: the
// JSON-RPC lines, each ended by one newline, whatever their length and the
// size of the reads; the first other line is kept as garbage.
func TestJSONLines(t *testing.T) {
	long := `{"id":1,"result":"` + strings.Repeat("x", 200<<10) + `"}`
	stdout := "Starting server...\n  {\"id\":0}\r\n\n" + long + "\nnot json either\n[{\"id\":2}]"
	want := "{\"id\":0}\n" + long + "\n[{\"id\":2}]\n"
	for name, wrap := range map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
	} {
		c := &Child{drained: make(chan struct{})}
		c.readers.Store(1)
		r := &jsonLines{c: c, in: bufio.NewReaderSize(strings.NewReader(stdout), 4<<10), masker: mask.NewMasker()}
		got, err := io.ReadAll(wrap(r))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if string(got) != want {
			t.Errorf("%s: the transport read %.200q…, want %.200q…", name, got, want)
		}
		if c.garbage != "Starting server..." {
			t.Errorf("%s: garbage %q, want the first line that is not JSON-RPC", name, c.garbage)
		}
		select {
		case <-c.drained: // stdout's end was seen
		default:
			t.Errorf("%s: the reader did not note the end of stdout", name)
		}
	}
}
