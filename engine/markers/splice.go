package markers

import (
	"bytes"
	"slices"
	"strings"
)

// An Op sets or removes one block.
type Op struct {
	ID string
	// Body is the block's body (LF line ends, ending in a newline or
	// empty); nil removes the block.
	Body *string
}

// Splice parses src (the content of the file name), makes each op in turn
// and returns the new content. A file whose markers do not pair up is an
// *Error, and nothing is made.
func Splice(name string, src []byte, ops []Op) ([]byte, error) {
	for _, op := range ops {
		f, err := Parse(name, src)
		if err != nil {
			return nil, err
		}
		if op.Body == nil {
			src = f.Remove(op.ID)
		} else {
			src = f.Set(op.ID, *op.Body)
		}
	}
	return src, nil
}

// Render returns a block as a file holds it: its marker lines around its
// body, with the line ends given.
func Render(id, body string, crlf bool) []byte {
	nl := "\n"
	if crlf {
		nl = "\r\n"
		body = strings.ReplaceAll(body, "\n", "\r\n")
	}
	return []byte(Begin(id) + nl + body + End(id) + nl)
}

// Set returns the file's content with block id holding body: replaced
// between its own markers when it is there, else added after the last
// block, or at the end of the file after one blank line, or as the whole
// content of an empty file. A file that does not end in a newline keeps
// not ending in one: a block added at its end comes after the newline the
// file lacked and a blank line, and its end marker has no line end (Remove
// then gives the file back byte for byte).
func (f *File) Set(id, body string) []byte {
	nl := f.nl()
	if b, ok := f.Block(id); ok {
		if f.crlf {
			body = strings.ReplaceAll(body, "\n", "\r\n")
		}
		return concat(f.src[:b.bodyStart], []byte(body), f.src[b.bodyEnd:])
	}
	block := Render(id, body, f.crlf)
	open := len(f.src) > 0 && !bytes.HasSuffix(f.src, []byte("\n"))
	if open {
		block = block[:len(block)-len(nl)]
	}
	switch {
	case len(f.blocks) > 0:
		last := f.blocks[len(f.blocks)-1]
		if last.stop < len(f.src) {
			block = Render(id, body, f.crlf) // not at the end of the file
		}
		lead := nl
		if !bytes.HasSuffix(f.src[:last.stop], []byte("\n")) {
			lead = nl + nl
		}
		return concat(f.src[:last.stop], []byte(lead), block, f.src[last.stop:])
	case len(f.src) == 0:
		return block
	case !open:
		return concat(f.src, []byte(nl), block)
	default:
		return concat(f.src, []byte(nl+nl), block)
	}
}

// Remove returns the file's content without block id (the content as it is
// when there is no such block). The one blank line Set adds with a block
// goes with it: the blank line between it and a block that follows, else
// the blank line before it. Every other byte stays.
func (f *File) Remove(id string) []byte {
	b, ok := f.Block(id)
	if !ok {
		return f.src
	}
	out := concat(f.src[:b.start], f.src[b.stop:])
	if b.stop == len(f.src) && !bytes.HasSuffix(f.src, []byte("\n")) {
		// The last block of a file that does not end in a newline: the
		// blank line and the newline Set added before it go with it,
		// spelled as the block's own lines end.
		nl := []byte("\n")
		if bytes.HasSuffix(f.src[:b.bodyStart], []byte("\r\n")) {
			nl = []byte("\r\n")
		}
		if bytes.HasSuffix(out, append(slices.Clone(nl), nl...)) {
			return out[:len(out)-2*len(nl)]
		}
		return out
	}
	ls := lines(out)
	at := b.start
	// The lines around the place the block was: prev ends at it, next
	// starts at it.
	prev, next := -1, -1
	for i, l := range ls {
		if l.off+len(l.text) == at {
			prev = i
		}
		if l.off == at {
			next = i
		}
	}
	isMarker := func(i int, begin bool) bool {
		if i < 0 || i >= len(ls) {
			return false
		}
		_, bg, ok := marker(ls[i].content())
		return ok && bg == begin
	}
	switch {
	case next >= 0 && ls[next].blank() && isMarker(next+1, true):
		l := ls[next]
		return concat(out[:l.off], out[l.off+len(l.text):])
	case prev >= 0 && ls[prev].blank():
		l := ls[prev]
		return concat(out[:l.off], out[l.off+len(l.text):])
	}
	return out
}

// Wrap returns body as a whole file holding only block id: the text a
// hand-written file becomes when it is taken over as one rule.
func Wrap(id, body string, crlf bool) []byte { return Render(id, body, crlf) }

func (f *File) nl() string {
	if f.crlf {
		return "\r\n"
	}
	return "\n"
}

func concat(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
