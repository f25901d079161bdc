package yamlfile

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A Change sets or removes one entry: the member Name of the map at KeyPath.
type Change struct {
	KeyPath []string
	Name    string
	// Value is the entry's new value, a mapping (Map.Node); nil removes the
	// entry.
	Value *yaml.Node
}

// Edit returns the document's content with every change made, by the
// layout rules of the package comment, and every other byte unchanged. The
// result is parsed once more and must decode to exactly the document with
// the changes made (verify); otherwise Edit returns an error and no bytes.
// When no change alters the document, Edit returns its content as it was
// (nil for a missing file); a file emptied by an edit is an empty slice.
func (d *Document) Edit(changes []Change) ([]byte, error) {
	if len(changes) == 0 {
		return d.Data, nil
	}
	seen := map[string]bool{}
	var keyPaths [][]string
	for _, c := range changes {
		id := strings.Join(append(slices.Clone(c.KeyPath), c.Name), "\x00")
		if seen[id] {
			return nil, fmt.Errorf("%s: %s is changed twice in one edit", d.Path, dotted(append(slices.Clone(c.KeyPath), c.Name)))
		}
		seen[id] = true
		if !slices.ContainsFunc(keyPaths, func(p []string) bool { return slices.Equal(p, c.KeyPath) }) {
			keyPaths = append(keyPaths, c.KeyPath)
		}
	}
	if oddBreaks(d.Data) {
		return nil, fmt.Errorf("%s: the file has line breaks other than LF and CRLF (a CR on its own, NEL, LS or PS), which YAML counts as new lines; chronicle does not edit it", d.Path)
	}
	doc, out := d, d.Data
	for i, keyPath := range keyPaths {
		if i > 0 {
			var err error
			if doc, err = Parse(d.Path, out); err != nil {
				return nil, fmt.Errorf("%s: editing %s: %w", d.Path, dotted(keyPaths[i-1]), err)
			}
		}
		var group []Change
		for _, c := range changes {
			if slices.Equal(c.KeyPath, keyPath) {
				group = append(group, c)
			}
		}
		var err error
		if out, err = doc.splice(keyPath, group); err != nil {
			return nil, fmt.Errorf("%s: %w", d.Path, err)
		}
	}
	if bytes.Equal(out, d.Data) {
		return d.Data, nil
	}
	if err := d.verify(out, changes, keyPaths); err != nil {
		return nil, fmt.Errorf("%s: %w", d.Path, err)
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}

// A span is a run of bytes of the original to replace by text (empty to
// insert at start).
type span struct {
	start, end int
	text       []byte
}

// splice makes changes to the map at keyPath in one pass over the bytes.
func (d *Document) splice(keyPath []string, changes []Change) ([]byte, error) {
	p, err := d.place(keyPath)
	if err != nil {
		return nil, err
	}
	l := newLines(d.Data)
	nl := eol(d.Data)
	var spans []span
	var added []Change
	removed := 0
	for _, c := range changes {
		i := p.index(c.Name)
		switch {
		case i < 0 && c.Value == nil:
			// Nothing to remove.
		case i < 0:
			added = append(added, c)
		default:
			pair := p.pairs[i]
			if err := editable(pair, append(slices.Clone(keyPath), c.Name)); err != nil {
				return nil, err
			}
			s := span{start: l.start(pair.Key.Line), end: l.lastContent(pair.Key.Line, p.entryBound(i))}
			if c.Value == nil {
				removed++
			} else {
				key := Key(c.Name)
				if bytes.Contains(l.text(pair.Key.Line), []byte(pair.Key.LineComment)) {
					// (The parser sometimes gives a key a comment from
					// another line, which would be written twice.)
					key.LineComment = pair.Key.LineComment
				}
				if s.text, err = block(key, c.Value, p.indent, p.step, nl); err != nil {
					return nil, fmt.Errorf("%s: %w", dotted(append(slices.Clone(keyPath), c.Name)), err)
				}
			}
			spans = append(spans, s)
		}
	}
	if len(p.pairs) > 0 && removed == len(p.pairs) && len(added) == 0 {
		spans = p.emptied(l, spans)
	} else {
		for i := range spans {
			if spans[i].text == nil {
				spans[i].start = blankAbove(l, spans[i].start)
			}
		}
		ins, err := p.additions(l, added, nl)
		if err != nil {
			return nil, err
		}
		spans = append(spans, ins...)
	}
	return apply(d.Data, spans)
}

// blankAbove extends a removed entry's span over the blank line above it,
// if there is one: entries kept apart by blank lines stay so, and an entry
// added to such a map (after a blank line) and removed again leaves the
// bytes it found.
func blankAbove(l lines, start int) int {
	if start > 0 {
		if above := l.lineOf(start - 1); l.blank(above) {
			return l.start(above)
		}
	}
	return start
}

// blankBelow extends a removed map's span over the blank line after it when
// there is a blank line before it too, so that the keys around it keep one
// blank line between them, not two.
func blankBelow(l lines, start, end int) int {
	if start == 0 || end >= len(l.data) || !l.blank(l.lineOf(start-1)) {
		return end
	}
	if below := l.lineOf(end); l.blank(below) {
		return l.end(below)
	}
	return end
}

// apply replaces the spans of data. Removals that overlap (two entries
// sharing the blank line between them) are joined; any other overlap is an
// error.
func apply(data []byte, spans []span) ([]byte, error) {
	slices.SortStableFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.end - b.end
	})
	joined := spans[:0:0]
	for _, s := range spans {
		if n := len(joined); n > 0 && s.start < joined[n-1].end {
			if len(s.text) > 0 || len(joined[n-1].text) > 0 {
				return nil, fmt.Errorf("two changes overlap at byte %d", s.start)
			}
			joined[n-1].end = max(joined[n-1].end, s.end)
			continue
		}
		joined = append(joined, s)
	}
	spans = joined
	size := len(data)
	for _, s := range spans {
		size += len(s.text) - (s.end - s.start)
	}
	if len(spans) == 0 {
		return data, nil
	}
	out := make([]byte, 0, size)
	at := 0
	for _, s := range spans {
		out = append(append(out, data[at:s.start]...), s.text...)
		at = s.end
	}
	return append(out, data[at:]...), nil
}
