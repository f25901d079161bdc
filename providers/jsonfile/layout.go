package jsonfile

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/tailscale/hujson"
)

// A layout is the formatting a file already uses, which new text follows.
type layout struct {
	d    *Document
	unit string // one level of indentation
	nl   string // line ending
}

func layoutOf(d *Document) layout {
	l := layout{d: d, unit: "  ", nl: "\n"}
	if bytes.Contains(d.text, []byte("\r\n")) {
		l.nl = "\r\n"
	}
	if unit, ok := unitIn(d.text, &d.root, d.offset); ok {
		l.unit = unit
	}
	return l
}

// unitIn returns the indentation unit of the first object in v, in file
// order, whose first member starts a line deeper than the line of its
// brace. at maps an offset of v's parse to the file's. An object or array
// a document of ParseOnly left out is parsed when the search reaches it:
// a file indented like Claude Code's shows its unit at the top.
func unitIn(text []byte, v *hujson.Value, at func(int) int) (string, bool) {
	for x := range v.All() {
		switch val := x.Value.(type) {
		case *hujson.Object:
			if len(val.Members) == 0 {
				continue
			}
			ind, own := ownLine(val.Members[0].Name)
			if !own {
				continue
			}
			if outer := lineIndent(text, at(x.StartOffset)); len(ind) > len(outer) && strings.HasPrefix(ind, outer) {
				return ind[len(outer):], true
			}
		case hujson.Literal:
			if _, raw := meaning(*x).(Raw); !raw {
				continue
			}
			sub, err := hujson.Parse(val)
			if err != nil {
				continue
			}
			base := at(x.StartOffset)
			if unit, ok := unitIn(text, &sub, func(o int) int { return base + o }); ok {
				return unit, true
			}
		}
	}
	return "", false
}

// ownLine reports whether a member name starts its own line, and the
// indentation of that line.
func ownLine(name hujson.Value) (indent string, ok bool) {
	return lineStart(name.BeforeExtra)
}

// lineStart reports whether what follows the extra before starts its own
// line, and the indentation of that line.
func lineStart(before hujson.Extra) (indent string, ok bool) {
	i := bytes.LastIndexByte(before, '\n')
	if i < 0 {
		return "", false
	}
	rest := before[i+1:]
	return string(rest[:len(rest)-len(bytes.TrimLeft(rest, " \t"))]), true
}

// inlineBlanks returns the blanks at the end of the extra before.
func inlineBlanks(b hujson.Extra) string {
	return string(b[len(bytes.TrimRight(b, " \t")):])
}

// lineIndent returns the indentation of the line of the file holding the
// value that starts at offset of the document's parse.
func (l layout) lineIndent(offset int) string {
	return lineIndent(l.d.text, l.d.offset(offset))
}

// lineIndent returns the indentation of the line of src holding offset.
func lineIndent(src []byte, offset int) string {
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	end := start
	for end < offset && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// lastNonSpace returns the length of b without its trailing blanks.
func lastNonSpace(b []byte) int {
	return len(bytes.TrimRight(b, " \t\r\n"))
}

// lineTail returns the length of b without the blanks at its end that
// indent a line, and without the line break before them: what goes with a
// member when it is removed.
func lineTail(b []byte) int {
	n := len(bytes.TrimRight(b, " \t"))
	if n > 0 && b[n-1] == '\n' {
		n--
		if n > 0 && b[n-1] == '\r' {
			n--
		}
	}
	return n
}

func isSpace(b []byte) bool { return len(bytes.TrimLeft(b, " \t\r\n")) == 0 }

// indent formats standard JSON as a value whose first line starts at
// prefix.
func (l layout) indent(value []byte, prefix string) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, value, prefix, l.unit); err != nil {
		return string(value)
	}
	return strings.ReplaceAll(buf.String(), "\n", l.nl)
}

func compact(value []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, value); err != nil {
		return string(value)
	}
	return buf.String()
}

func quote(s string) string {
	b, _ := Marshal(s)
	return string(b)
}
