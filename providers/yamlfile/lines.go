package yamlfile

import (
	"bytes"
	"unicode/utf8"
)

// lines indexes the lines of a document: YAML positions are lines and
// columns, spans are byte offsets. Line n (1-based) runs from start(n) to
// end(n), its line break included.
type lines struct {
	data   []byte
	starts []int // starts[n-1] is the offset of line n
}

func newLines(data []byte) lines {
	l := lines{data: data, starts: []int{0}}
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// count is the number of lines.
func (l lines) count() int {
	if len(l.data) == 0 {
		return 0
	}
	return len(l.starts)
}

// start is the offset of line n's first byte.
func (l lines) start(n int) int {
	if n > len(l.starts) {
		return len(l.data)
	}
	return l.starts[n-1]
}

// end is the offset just past line n's line break.
func (l lines) end(n int) int {
	if n >= len(l.starts) {
		return len(l.data)
	}
	return l.starts[n]
}

// text is line n without its line break.
func (l lines) text(n int) []byte {
	return bytes.TrimRight(l.data[l.start(n):l.end(n)], "\r\n")
}

// filler reports whether line n holds no content: it is blank, only a
// comment, or a document marker ("---" or "...").
func (l lines) filler(n int) bool {
	t := bytes.TrimLeft(l.text(n), " \t")
	switch {
	case len(bytes.TrimSpace(t)) == 0, t[0] == '#':
		return true
	case len(t) == len(l.text(n)) && (bytes.HasPrefix(t, []byte("---")) || bytes.HasPrefix(t, []byte("..."))):
		return len(t) == 3 || t[3] == ' ' || t[3] == '\t'
	}
	return false
}

// blank reports whether line n holds nothing but spaces.
func (l lines) blank(n int) bool {
	return n >= 1 && n <= l.count() && len(bytes.TrimSpace(l.text(n))) == 0
}

// lineOf is the line that holds offset off.
func (l lines) lineOf(off int) int {
	lo, hi := 0, len(l.starts)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if l.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

// lastContent is the end of the last line in [first, bound) that holds
// content, first itself when none after it does: where the span of
// something that starts on line first ends.
func (l lines) lastContent(first, bound int) int {
	for n := min(bound, l.count()+1) - 1; n > first; n-- {
		if !l.filler(n) {
			return l.end(n)
		}
	}
	return l.end(first)
}

// offset is the byte offset of a node's 1-based line and column (columns
// count characters, as the parser does).
func (l lines) offset(line, column int) int {
	off := l.start(line)
	for col := 1; col < column && off < l.end(line); col++ {
		_, size := utf8.DecodeRune(l.data[off:])
		off += max(size, 1)
	}
	return off
}

// eol is the file's line ending: CRLF when its first line ends so, else LF.
func eol(data []byte) string {
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// oddBreaks reports whether data holds a line break YAML counts but this
// package does not: a CR on its own, NEL, LS or PS.
func oddBreaks(data []byte) bool {
	for i, c := range data {
		if c == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			return true
		}
	}
	return bytes.Contains(data, []byte("\u0085")) || bytes.Contains(data, []byte("\u2028")) || bytes.Contains(data, []byte("\u2029"))
}
