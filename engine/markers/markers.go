package markers

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

const (
	beginPrefix = "<!-- chronicle:begin "
	endPrefix   = "<!-- chronicle:end "
	suffix      = " -->"
)

// idPattern is a block id: a kind, a dot, a name (rule.go-style,
// import.agents-md).
var idPattern = regexp.MustCompile(`^[a-z][a-z0-9-]*\.[a-z0-9][a-z0-9.-]*$`)

// maxID bounds an id, so that a long line is never taken for a marker.
const maxID = 200

// ValidID reports whether id can name a block.
func ValidID(id string) bool { return len(id) <= maxID && idPattern.MatchString(id) }

// Begin returns the begin marker line of id, without a line end.
func Begin(id string) string { return beginPrefix + id + suffix }

// End returns the end marker line of id, without a line end.
func End(id string) string { return endPrefix + id + suffix }

// marker reads a line (without its line end) as a marker: begin reports
// which kind, ok whether it is one at all.
func marker(line []byte) (id string, begin, ok bool) {
	s := string(line)
	switch {
	case strings.HasPrefix(s, beginPrefix):
		begin, s = true, s[len(beginPrefix):]
	case strings.HasPrefix(s, endPrefix):
		s = s[len(endPrefix):]
	default:
		return "", false, false
	}
	id, found := strings.CutSuffix(s, suffix)
	if !found || !ValidID(id) {
		return "", false, false
	}
	return id, begin, true
}

// FindMarker returns the number of the first line of text that is a
// marker line, for refusing a text that would break its own block.
func FindMarker(text string) (int, bool) {
	for i, l := range lines([]byte(text)) {
		if _, _, ok := marker(l.content()); ok {
			return i + 1, true
		}
	}
	return 0, false
}

// A Block is one marked block of a file.
type Block struct {
	ID string
	// BeginLine and EndLine are the line numbers (from 1) of its markers.
	BeginLine, EndLine int
	// start is the offset of the begin line, bodyStart of the line after
	// it, bodyEnd of the end line, stop just past the end line.
	start, bodyStart, bodyEnd, stop int
}

// A File is a text parsed into the user's text and chronicle's blocks.
type File struct {
	name   string
	src    []byte
	crlf   bool
	blocks []Block
}

// An Error says a file's markers do not pair up. Nothing in such a file is
// changed.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d: %s; chronicle changes nothing in this file until its markers are fixed (each <!-- chronicle:begin ID --> line needs one <!-- chronicle:end ID --> line after it)", e.File, e.Line, e.Msg)
}

// Parse reads the blocks of src, the content of the file name.
func Parse(name string, src []byte) (*File, error) {
	f := &File{name: name, src: src}
	ls := lines(src)
	if len(ls) > 0 && bytes.HasSuffix(ls[0].text, []byte("\r\n")) {
		f.crlf = true
	}
	first := map[string]int{}
	var open *Block
	for i, l := range ls {
		id, begin, ok := marker(l.content())
		if !ok {
			continue
		}
		n := i + 1
		switch {
		case begin && open != nil:
			return nil, &Error{name, n, fmt.Sprintf("chronicle:begin %s inside block %s, opened at line %d and not closed", id, open.ID, open.BeginLine)}
		case begin:
			if at, dup := first[id]; dup {
				return nil, &Error{name, n, fmt.Sprintf("block %s is marked twice (first at line %d)", id, at)}
			}
			first[id] = n
			open = &Block{ID: id, BeginLine: n, start: l.off, bodyStart: l.off + len(l.text)}
		case open == nil:
			return nil, &Error{name, n, fmt.Sprintf("chronicle:end %s has no chronicle:begin before it", id)}
		case id != open.ID:
			return nil, &Error{name, n, fmt.Sprintf("chronicle:end %s closes block %s, opened at line %d", id, open.ID, open.BeginLine)}
		default:
			open.EndLine, open.bodyEnd, open.stop = n, l.off, l.off+len(l.text)
			f.blocks = append(f.blocks, *open)
			open = nil
		}
	}
	if open != nil {
		return nil, &Error{name, open.BeginLine, fmt.Sprintf("chronicle:begin %s has no chronicle:end", open.ID)}
	}
	return f, nil
}

// Blocks returns the file's blocks in file order.
func (f *File) Blocks() []Block { return f.blocks }

// Block returns the block id, if the file has it.
func (f *File) Block(id string) (Block, bool) {
	for _, b := range f.blocks {
		if b.ID == id {
			return b, true
		}
	}
	return Block{}, false
}

// Body returns a block's body with LF line ends.
func (f *File) Body(b Block) string {
	return strings.ReplaceAll(string(f.src[b.bodyStart:b.bodyEnd]), "\r\n", "\n")
}

// CRLF reports whether the file's lines end in CRLF (its first line does).
func (f *File) CRLF() bool { return f.crlf }

// Outside returns the file's text with every block taken out: what is the
// user's.
func (f *File) Outside() []byte {
	var out []byte
	at := 0
	for _, b := range f.blocks {
		out = append(out, f.src[at:b.start]...)
		at = b.stop
	}
	return append(out, f.src[at:]...)
}

// HasLine reports whether a line outside the blocks equals line, leading
// and trailing spaces aside (an import line the user wrote: @AGENTS.md).
func (f *File) HasLine(line string) bool {
	for _, l := range lines(f.Outside()) {
		if strings.TrimSpace(string(l.content())) == line {
			return true
		}
	}
	return false
}

// A line is one line of a text, with its line end.
type line struct {
	off  int
	text []byte
}

// content is the line without its line end.
func (l line) content() []byte {
	c := bytes.TrimSuffix(l.text, []byte("\n"))
	return bytes.TrimSuffix(c, []byte("\r"))
}

func (l line) blank() bool { return len(bytes.TrimSpace(l.text)) == 0 && len(l.text) > 0 }

// lines splits src into lines, each with its line end (the last may have
// none).
func lines(src []byte) []line {
	var out []line
	for off := 0; off < len(src); {
		end := len(src)
		if j := bytes.IndexByte(src[off:], '\n'); j >= 0 {
			end = off + j + 1
		}
		out = append(out, line{off: off, text: src[off:end]})
		off = end
	}
	return out
}
