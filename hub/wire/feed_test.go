package wire

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// TestFeed: a Feed starts its giver on the first Read, hands the lines
// given in order, then what ended the input; Give after Close is refused.
func TestFeed(t *testing.T) {
	lines := []string{"one\n", "two\n", "a line longer than the reader's buffer " + strings.Repeat("x", 100) + "\n"}
	var f *Feed
	f = NewFeed(func() {
		go func() {
			for _, l := range lines {
				if !f.Give([]byte(l)) {
					return
				}
			}
			f.End(io.EOF)
		}()
	})
	r := bufio.NewReaderSize(f, 16)
	var got []string
	for {
		line, err := r.ReadString('\n')
		if line != "" {
			got = append(got, line)
		}
		if err != nil {
			if err != io.EOF {
				t.Fatalf("the input ended with %v; want io.EOF", err)
			}
			break
		}
	}
	if strings.Join(got, "") != strings.Join(lines, "") || len(got) != len(lines) {
		t.Errorf("read %q; want %q", got, lines)
	}

	closed := NewFeed(func() {})
	closed.Close()
	if closed.Give([]byte("late\n")) {
		t.Error("a closed Feed took a line")
	}
}
