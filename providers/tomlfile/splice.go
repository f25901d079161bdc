package tomlfile

import (
	"bytes"
	"slices"
)

// Set returns data with the entry keyPath.name added, or replaced by t, and
// every other byte unchanged: Edit with that one change.
func Set(data []byte, keyPath []string, name string, t Table) ([]byte, error) {
	return editBytes(data, Change{KeyPath: keyPath, Name: name, Table: t})
}

// Delete returns data without the entry keyPath.name, and every other byte
// unchanged: Edit with that one removal. Deleting an absent entry returns
// data as it is.
func Delete(data []byte, keyPath []string, name string) ([]byte, error) {
	return editBytes(data, Change{KeyPath: keyPath, Name: name})
}

func editBytes(data []byte, changes ...Change) ([]byte, error) {
	d, err := Parse("", data)
	if err != nil {
		return nil, err
	}
	return d.Edit(changes)
}

// setText puts text, the rendered entry key under keyPath, into data. An
// entry written as a [header] is replaced in place, below its lead
// comments; one written with dotted keys is removed and the new table added
// where a new entry goes; one written inline is refused (see rewritable).
func setText(data []byte, keyPath, key []string, text []byte) ([]byte, error) {
	exprs, err := layout(data)
	if err != nil {
		return nil, err
	}
	ps, err := pieces(exprs, key)
	if err != nil {
		return nil, err
	}
	if err := rewritable(ps, key); err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return insert(data, insertionPoint(data, exprs, nil, keyPath), text), nil
	}
	if !ps[0].table {
		// Dotted keys: take them out, then add a table.
		data = cutPieces(data, ps)
		if exprs, err = layout(data); err != nil {
			return nil, err
		}
		return insert(data, insertionPoint(data, exprs, nil, keyPath), text), nil
	}
	data = cutPieces(data, ps[1:])
	first := ps[0]
	return replace(data, first.start, first.end, fitEnd(data, first.end, text)), nil
}

// fitEnd returns text, which ends with a newline, to replace bytes ending at
// end: at the end of a file that does not end with a newline, without it.
func fitEnd(data []byte, end int, text []byte) []byte {
	if end == len(data) && !endsLine(data) {
		return bytes.TrimRight(text, "\r\n")
	}
	return text
}

// insertion returns the text that puts texts, each ending with a newline,
// at point: each after one blank line, except at the start of an empty
// file; at the end of a file that does not end with a newline, the last
// does not end with one either (cut undoes exactly this).
func insertion(data []byte, point int, texts [][]byte) []byte {
	nl := []byte(eol(data))
	var b []byte
	for _, t := range texts {
		b = append(append(b, nl...), t...)
	}
	switch {
	case len(data) == 0:
		return b[len(nl):]
	case point == len(data) && !endsLine(data):
		return append(slices.Clone(nl), bytes.TrimRight(b, "\r\n")...)
	}
	return b
}

// insert puts text, which ends with a newline, at point (see insertion).
func insert(data []byte, point int, text []byte) []byte {
	return replace(data, point, point, insertion(data, point, [][]byte{text}))
}

// deleteEntry returns data without the entry keyPath.name; data itself
// when there is none.
func deleteEntry(data []byte, keyPath []string, name string) ([]byte, error) {
	exprs, err := layout(data)
	if err != nil {
		return nil, err
	}
	ps, err := pieces(exprs, append(slices.Clone(keyPath), name))
	if err != nil || len(ps) == 0 {
		return data, err
	}
	return cutPieces(data, ps), nil
}

// cutPieces removes pieces, last first so earlier offsets stay valid. The
// comment lines above a removed entry stay: they may be the user's notes or
// a banner over the whole section, and chronicle never writes comments.
func cutPieces(data []byte, ps []piece) []byte {
	for i := len(ps) - 1; i >= 0; i-- {
		data = cut(data, ps[i].start, ps[i].end, ps[i].table)
	}
	return data
}
