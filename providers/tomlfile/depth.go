package tomlfile

import (
	"bytes"
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// MaxDepth is how deeply a TOML file may nest tables and arrays, counting
// each part of a dotted key ([a.b.c], a.b.c = 1) as a level, since each
// makes a table. Real files nest a handful of levels; the parsers' time
// grows with the square of the depth (a 40 KB file nested 10,000 deep takes
// minutes), and their recursion with the depth itself.
const MaxDepth = 512

// A tomlFrame is one open array or inline table of a value.
type tomlFrame struct {
	table bool // an inline table, else an array
	key   bool // reading a key of the inline table (after { or ,), not a value
	parts int  // parts of that key so far
}

// checkDepth scans data for its nesting before it is parsed, skipping
// strings and comments, and returns a *provider.ParseError at the first
// place deeper than MaxDepth. It checks nothing else: the parser does.
func checkDepth(path string, data []byte) error {
	var (
		header    int  // levels of the current [table] or [[array]] header
		topKey    bool // reading a top-level key (true at the start of a line)
		topParts  int  // parts of that key so far
		lineStart = true
		frames    []tomlFrame
	)
	depth := func() int {
		d := header + topParts
		for _, f := range frames {
			d++
			if f.table {
				d += f.parts
			}
		}
		return d
	}
	// keyPart counts one more part of the key being read, if one is.
	keyPart := func() {
		switch {
		case len(frames) > 0 && frames[len(frames)-1].key:
			frames[len(frames)-1].parts++
		case len(frames) == 0 && topKey:
			topParts++
		}
	}
	inKey := func() bool {
		if len(frames) > 0 {
			return frames[len(frames)-1].key
		}
		return topKey
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		if lineStart && len(frames) == 0 {
			switch c {
			case ' ', '\t', '\r':
				continue
			case '[':
				end, levels := headerEnd(data, i)
				header = levels
				if header > MaxDepth {
					return depthError(path, data, i)
				}
				i, lineStart, topKey = end, false, false
				continue
			}
			lineStart, topKey, topParts = false, true, 0
			if c != '\n' && c != '#' {
				topParts = 1 // the key's first part starts here
			}
		}
		switch c {
		case '\n':
			if len(frames) == 0 {
				lineStart, topKey, topParts = true, false, 0
			}
		case '#': // a comment: on to its newline
			if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
				i += j - 1
			} else {
				i = len(data)
			}
		case '"', '\'':
			i = tomlStringEnd(data, i)
		case '.':
			if inKey() {
				keyPart()
			}
		case '=':
			if len(frames) > 0 {
				frames[len(frames)-1].key = false
			} else {
				topKey = false
			}
		case ',':
			if n := len(frames); n > 0 && frames[n-1].table {
				frames[n-1].key, frames[n-1].parts = true, 0
			}
		case '[', '{':
			if inKey() {
				continue // not valid in a key: the parser says so
			}
			frames = append(frames, tomlFrame{table: c == '{', key: c == '{'})
			if depth() > MaxDepth {
				return depthError(path, data, i)
			}
		case ']', '}':
			if len(frames) > 0 {
				frames = frames[:len(frames)-1]
			}
		default:
			// The first character of an inline table's key is its first part.
			if n := len(frames); n > 0 && frames[n-1].key && frames[n-1].parts == 0 && c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				frames[n-1].parts = 1
			}
		}
		if inKey() && depth() > MaxDepth {
			return depthError(path, data, i)
		}
	}
	return nil
}

// headerEnd returns the index of the last byte of the table header opening
// at data[open] ([a.b] or [[a.b]]), and how many levels it makes: one per
// part of its key, and one more for an array of tables.
func headerEnd(data []byte, open int) (end, levels int) {
	levels = 1
	i := open + 1
	if i < len(data) && data[i] == '[' {
		levels++
		i++
	}
	for ; i < len(data); i++ {
		switch data[i] {
		case '"', '\'':
			i = tomlStringEnd(data, i)
		case '.':
			levels++
		case ']', '\n':
			if data[i] == ']' && i+1 < len(data) && data[i+1] == ']' {
				i++
			}
			return i, levels
		}
	}
	return len(data) - 1, levels
}

// tomlStringEnd returns the index of the last byte of the string opening at
// data[open]: basic ("…", with escapes) or literal ('…'), on one line or
// multi-line (""" or ”'). An unclosed string runs to the end of its line
// (or of the file, when multi-line).
func tomlStringEnd(data []byte, open int) int {
	q := data[open]
	triple := []byte{q, q, q}
	if bytes.HasPrefix(data[open:], triple) {
		for i := open + 3; i < len(data); i++ {
			if q == '"' && data[i] == '\\' {
				i++
				continue
			}
			if bytes.HasPrefix(data[i:], triple) {
				end := i + 2
				for end+1 < len(data) && data[end+1] == q && end+1 < i+5 {
					end++ // up to two quotes of the content may touch the closing three
				}
				return end
			}
		}
		return len(data) - 1
	}
	for i := open + 1; i < len(data); i++ {
		switch {
		case q == '"' && data[i] == '\\':
			i++
		case data[i] == q:
			return i
		case data[i] == '\n':
			return i - 1
		}
	}
	return len(data) - 1
}

func depthError(path string, data []byte, off int) error {
	line, col := position(data, off)
	return &provider.ParseError{File: path, Line: line, Column: col,
		Err: fmt.Errorf("nested deeper than %d levels (tables, arrays and dotted keys): no tool's configuration needs that many", MaxDepth)}
}
