package jsonfile

import (
	"fmt"

	"github.com/tailscale/hujson"
)

// insert appends the member name: value (standard JSON) to obj.
func (l layout) insert(obj *hujson.Value, name string, value []byte) []byte {
	o := obj.Value.(*hujson.Object)
	open, end := obj.StartOffset, obj.EndOffset-1
	key := quote(name) + ": "
	if len(o.Members) == 0 {
		ind := lineIndent(l.src, open)
		if isSpace(l.src[open+1 : end]) {
			text := l.nl + ind + l.unit + key + l.indent(value, ind+l.unit) + l.nl + ind
			return splice(l.src, open+1, end, text)
		}
		p := lastNonSpace(l.src, open+1, end) // after the comments the object holds
		return splice(l.src, p, p, l.nl+ind+l.unit+key+l.indent(value, ind+l.unit))
	}
	last := o.Members[len(o.Members)-1]
	comma := last.Value.EndOffset + len(last.Value.AfterExtra)
	trailing := l.src[comma] == ','
	var text string
	if ind, own := ownLine(last.Name); own {
		text = l.nl + ind + key + l.indent(value, ind)
	} else {
		text = inlineSep(last.Name) + key + compact(value)
	}
	if trailing {
		text += ","
	}
	p := lastNonSpace(l.src, last.Value.EndOffset, end)
	out := splice(l.src, p, p, text)
	if !trailing {
		out = splice(out, last.Value.EndOffset, last.Value.EndOffset, ",")
	}
	return out
}

// replace sets the value of obj's member idx, keeping the member's place.
func (l layout) replace(obj *hujson.Value, idx int, value []byte) []byte {
	m := obj.Value.(*hujson.Object).Members[idx]
	text := compact(value)
	if ind, own := ownLine(m.Name); own {
		text = l.indent(value, ind)
	}
	return splice(l.src, m.Value.StartOffset, m.Value.EndOffset, text)
}

// remove deletes obj's member idx with its own lines (or, inline, with the
// blanks before it) and the comma that separated it. An object left with
// nothing but blanks inside becomes "{}".
func (l layout) remove(obj *hujson.Value, idx int) ([]byte, error) {
	src := l.src
	o := obj.Value.(*hujson.Object)
	m := o.Members[idx]
	start := m.Name.StartOffset
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start > 0 && src[start-1] == '\n' {
		start--
		if start > 0 && src[start-1] == '\r' {
			start--
		}
	}
	end := m.Value.EndOffset
	comma := end + len(m.Value.AfterExtra)
	hasComma := comma < len(src) && src[comma] == ','
	if hasComma {
		end = comma + 1
	}
	out := splice(src, start, end, "")
	if !hasComma && idx > 0 {
		prev := o.Members[idx-1].Value
		pc := prev.EndOffset + len(prev.AfterExtra)
		if src[pc] != ',' {
			return nil, fmt.Errorf("no comma after the member before %s", quote(nameOf(m.Name)))
		}
		out = splice(out, pc, pc+1, "")
	}
	if len(o.Members) == 1 {
		open := obj.StartOffset
		closing := obj.EndOffset - 1 - (len(src) - len(out))
		if isSpace(out[open+1 : closing]) {
			out = splice(out, open+1, closing, "")
		}
	}
	return out, nil
}
