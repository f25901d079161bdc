package tomlfile

import (
	"slices"

	"github.com/pelletier/go-toml/v2/unstable"
)

// An exprKind tells the top-level expressions of a document apart.
type exprKind int

const (
	exprComment    exprKind = iota // a comment alone on its line
	exprTable                      // [a.b]
	exprArrayTable                 // [[a.b]]
	exprKeyValue                   // a.b = v
)

// An expr is one top-level expression with the whole lines it occupies.
type expr struct {
	kind exprKind
	// path is the full key: the header's key for tables, the current table's
	// key plus the key for key/values, nil for comments.
	path  []string
	start int // start of its first line
	end   int // end of its last line, after the newline (or the end of data)
}

// layout lists the top-level expressions of data in order.
func layout(data []byte) ([]expr, error) {
	p := unstable.Parser{KeepComments: true}
	p.Reset(data)
	var table []string
	var out []expr
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Comment:
			out = append(out, wholeLines(data, exprComment, nil, n.Raw))
		case unstable.Table, unstable.ArrayTable:
			key, raw := keyOf(n.Key())
			table = key
			kind := exprTable
			if n.Kind == unstable.ArrayTable {
				kind = exprArrayTable
			}
			out = append(out, wholeLines(data, kind, key, raw))
		case unstable.KeyValue:
			key, _ := keyOf(n.Key())
			path := append(slices.Clone(table), key...)
			out = append(out, wholeLines(data, exprKeyValue, path, n.Raw))
		}
	}
	if err := p.Error(); err != nil {
		return nil, layoutError(data, err)
	}
	return out, nil
}

// keyOf returns a dotted key's parts and the range from its first part to
// its last.
func keyOf(it unstable.Iterator) ([]string, unstable.Range) {
	var parts []string
	var first, last unstable.Range
	for it.Next() {
		n := it.Node()
		if parts == nil {
			first = n.Raw
		}
		last = n.Raw
		parts = append(parts, string(n.Data))
	}
	return parts, unstable.Range{Offset: first.Offset, Length: last.Offset + last.Length - first.Offset}
}

func wholeLines(data []byte, kind exprKind, path []string, r unstable.Range) expr {
	from := int(r.Offset)
	to := from + int(r.Length)
	if to > from {
		to-- // the last byte of the expression, which may itself end a line
	}
	return expr{kind: kind, path: path, start: lineStart(data, from), end: lineEnd(data, to)}
}

// hasPrefix reports whether path starts with prefix.
func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}
