package tomlfile

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// A Change sets or removes one entry: the table KeyPath.Name.
type Change struct {
	KeyPath []string
	Name    string
	// Table is the entry's new content; nil removes the entry.
	Table Table
}

// An intent is a change ready to splice: its key, its rendered text (nil
// for a removal) and what that text decodes to.
type intent struct {
	keyPath []string
	name    string
	key     []string
	text    []byte
	want    map[string]any
}

// Edit returns the document's content with every change made, by the
// layout rules of the package comment, and every other byte unchanged. All
// changes are spliced into the bytes as read, in one pass, where their
// spans are apart (the usual case: any number of new entries, and entries
// written as one [header] section each); otherwise they are made one after
// the other. The result is decoded once and must mean exactly the document
// with the changes made (verify); otherwise Edit returns an error and no
// bytes. When no change alters the document, Edit returns its content as it
// was (nil for a missing file).
//
// An entry written inline (x = { … } under [mcp_servers]) cannot be set, and
// a map written inline or as an array of tables cannot be edited at all:
// chronicle does not rewrite those. Those, and two changes of one entry,
// are errors naming the file and the entry.
func (d *Document) Edit(changes []Change) ([]byte, error) {
	intents := make([]intent, len(changes))
	seen := map[string]bool{}
	for i, c := range changes {
		key := append(slices.Clone(c.KeyPath), c.Name)
		if id := strings.Join(key, "\x00"); seen[id] {
			return nil, fmt.Errorf("%s: [%s] is changed twice in one edit", d.Path, Dotted(key))
		} else {
			seen[id] = true
		}
		in := intent{keyPath: c.KeyPath, name: c.Name, key: key}
		if c.Table != nil {
			text, err := c.Table.Render(key)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", d.Path, err)
			}
			if in.want, err = intended(text, key); err != nil {
				return nil, fmt.Errorf("%s: [%s]: %w", d.Path, Dotted(key), err)
			}
			in.text = bytes.ReplaceAll(text, []byte("\n"), []byte(eol(d.Data)))
		}
		intents[i] = in
	}
	if err := nested(intents); err != nil {
		return nil, fmt.Errorf("%s: %w", d.Path, err)
	}
	out, err := splice(d.Data, intents)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Path, err)
	}
	if bytes.Equal(out, d.Data) {
		return d.Data, nil
	}
	if err := verify(d, out, intents); err != nil {
		return nil, fmt.Errorf("%s: %w", d.Path, err)
	}
	if out == nil {
		out = []byte{} // an existing file, emptied
	}
	return out, nil
}

// nested refuses a change inside an entry another change sets or removes.
func nested(intents []intent) error {
	keys := make(map[string]bool, len(intents))
	for _, in := range intents {
		keys[strings.Join(in.key, "\x00")] = true
	}
	for _, in := range intents {
		for k := 1; k < len(in.key); k++ {
			if keys[strings.Join(in.key[:k], "\x00")] {
				return fmt.Errorf("[%s] is changed inside [%s], which another change replaces", Dotted(in.key), Dotted(in.key[:k]))
			}
		}
	}
	return nil
}

// splice makes every change in data: in one pass when it can, else one
// after the other.
func splice(data []byte, intents []intent) ([]byte, error) {
	out, ok, err := spliceOnce(data, intents)
	if err != nil || ok {
		return out, err
	}
	for _, in := range intents {
		if in.text == nil {
			out, err = deleteEntry(data, in.keyPath, in.name)
		} else {
			out, err = setText(data, in.keyPath, in.key, in.text)
		}
		if err != nil {
			return nil, fmt.Errorf("[%s]: %w", Dotted(in.key), err)
		}
		data = out
	}
	return data, nil
}

// A span is a run of bytes of the original to replace by text (empty to
// insert at start).
type span struct {
	start, end int
	text       []byte
}

// spliceOnce computes the span of every change on one layout of data and
// replaces them all in one pass. It reports ok == false, and leaves the
// work to one change at a time, when an entry must move (one written with
// dotted keys or spread over the file) or two spans meet.
func spliceOnce(data []byte, intents []intent) (out []byte, ok bool, err error) {
	exprs, err := layout(data)
	if err != nil {
		return nil, false, err
	}
	entries := map[string]map[string][]piece{} // by key path
	gone := make([]bool, len(exprs))
	var spans []span
	var newPaths []string // key paths that get new entries, in order
	added := map[string][][]byte{}
	keyPaths := map[string][]string{}
	for _, in := range intents {
		id := strings.Join(in.keyPath, "\x00")
		all, seen := entries[id]
		if !seen {
			if all, err = entryPieces(exprs, in.keyPath); err != nil {
				return nil, false, fmt.Errorf("[%s]: %w", Dotted(in.key), err)
			}
			entries[id] = all
		}
		ps := all[in.name]
		if in.text != nil {
			if err := rewritable(ps, in.key); err != nil {
				return nil, false, fmt.Errorf("[%s]: %w", Dotted(in.key), err)
			}
		}
		switch {
		case in.text == nil:
			for _, p := range ps {
				start, end := cutRange(data, p.start, p.end, p.table)
				spans = append(spans, span{start: start, end: end})
				for i := p.first; i <= p.last; i++ {
					gone[i] = true
				}
			}
		case len(ps) == 0:
			if added[id] == nil {
				newPaths = append(newPaths, id)
				keyPaths[id] = in.keyPath
			}
			added[id] = append(added[id], in.text)
		case len(ps) > 1 || !ps[0].table:
			return nil, false, nil
		default:
			spans = append(spans, span{start: ps[0].start, end: ps[0].end, text: fitEnd(data, ps[0].end, in.text)})
		}
	}
	for _, id := range newPaths {
		point := insertionPoint(data, exprs, gone, keyPaths[id])
		spans = append(spans, span{start: point, end: point, text: insertion(data, point, added[id])})
	}
	sort.SliceStable(spans, func(i, j int) bool {
		if spans[i].start != spans[j].start {
			return spans[i].start < spans[j].start
		}
		return spans[i].end < spans[j].end
	})
	size := len(data)
	for i, s := range spans {
		if i > 0 && s.start < spans[i-1].end {
			return nil, false, nil
		}
		size += len(s.text) - (s.end - s.start)
	}
	out = make([]byte, 0, size)
	at := 0
	for _, s := range spans {
		out = append(append(out, data[at:s.start]...), s.text...)
		at = s.end
	}
	return append(out, data[at:]...), true, nil
}
