package tomlfile

import (
	"bytes"
	"slices"
)

// Set returns data with the entry keyPath.name added, or replaced by t, and
// every other byte unchanged. An entry written as a [header] is replaced in
// place, below its lead comments; one written inline or with dotted keys is
// removed and the new table added where a new entry goes. The result is
// checked with BurntSushi before it is returned.
func Set(data []byte, keyPath []string, name string, t Table) ([]byte, error) {
	out, _, err := setEntry(data, keyPath, name, t)
	return out, err
}

// setEntry is Set, also returning the entry as it must decode.
func setEntry(data []byte, keyPath []string, name string, t Table) ([]byte, map[string]any, error) {
	key := append(slices.Clone(keyPath), name)
	text, err := t.Render(key)
	if err != nil {
		return nil, nil, err
	}
	want, err := intended(text, key)
	if err != nil {
		return nil, nil, err
	}
	text = bytes.ReplaceAll(text, []byte("\n"), []byte(eol(data)))
	out, err := set(data, keyPath, key, text)
	if err != nil {
		return nil, nil, err
	}
	if err := verify(data, out, key, want); err != nil {
		return nil, nil, err
	}
	return out, want, nil
}

func set(data []byte, keyPath, key []string, text []byte) ([]byte, error) {
	exprs, err := layout(data)
	if err != nil {
		return nil, err
	}
	ps, err := pieces(exprs, key)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return insert(data, insertionPoint(data, exprs, keyPath), text), nil
	}
	if !ps[0].table {
		// Dotted keys or an inline table: take them out, then add a table.
		data = cutPieces(data, ps)
		if exprs, err = layout(data); err != nil {
			return nil, err
		}
		return insert(data, insertionPoint(data, exprs, keyPath), text), nil
	}
	data = cutPieces(data, ps[1:])
	first := ps[0]
	if first.end == len(data) && !endsLine(data) {
		text = bytes.TrimRight(text, "\r\n")
	}
	return replace(data, first.start, first.end, text), nil
}

// insert puts text, which ends with a newline, at point, with one blank line
// above it unless the file is empty. At the end of a file that does not end
// with a newline, the text does not end with one either: cut undoes exactly
// this.
func insert(data []byte, point int, text []byte) []byte {
	nl := []byte(eol(data))
	switch {
	case len(data) == 0:
		return slices.Clone(text)
	case point == len(data) && !endsLine(data):
		return slices.Concat(data, nl, nl, bytes.TrimRight(text, "\r\n"))
	}
	return replace(data, point, point, slices.Concat(nl, text))
}

// Delete returns data without the entry keyPath.name, and every other byte
// unchanged. Deleting an absent entry returns data as it is.
func Delete(data []byte, keyPath []string, name string) ([]byte, error) {
	key := append(slices.Clone(keyPath), name)
	exprs, err := layout(data)
	if err != nil {
		return nil, err
	}
	ps, err := pieces(exprs, key)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return data, nil
	}
	out := cutPieces(data, ps)
	if err := verify(data, out, key, nil); err != nil {
		return nil, err
	}
	return out, nil
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
