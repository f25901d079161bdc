package tomlfile

import (
	"bytes"
	"fmt"
	"slices"
)

// A piece is one run of consecutive expressions belonging to an entry. An
// entry usually is one piece ([a.x] and [a.x.env] one after the other), but
// TOML lets its sub-tables or dotted keys be spread over the file.
type piece struct {
	table  bool // begins with a table header: [a.x] or [[a.x]]
	inline bool // holds the entry as one value: x = { … } under [a]
	lead   int  // start of the comment lines directly above the header, or start
	start  int
	end    int
	first  int // index of its first expression
	last   int // index of its last expression
}

// pieces finds the runs of expressions that make up the entry at key. It
// fails when the entry sits inside an inline table or an array of tables,
// which cannot be spliced one entry at a time.
func pieces(exprs []expr, key []string) ([]piece, error) {
	all, err := entryPieces(exprs, key[:len(key)-1])
	return all[key[len(key)-1]], err
}

// entryPieces finds the pieces of every entry under keyPath, in one pass.
// It fails when the map at keyPath, or a table above it, is written as an
// inline value or an array of tables: chronicle does not rewrite those.
func entryPieces(exprs []expr, keyPath []string) (map[string][]piece, error) {
	out := map[string][]piece{}
	var open string
	isOpen := false
	for i, e := range exprs {
		if e.kind == exprComment {
			continue
		}
		if len(e.path) <= len(keyPath) && hasPrefix(keyPath, e.path) && e.kind != exprTable {
			return nil, inlineMapError(e, keyPath)
		}
		if len(e.path) <= len(keyPath) || !hasPrefix(e.path, keyPath) {
			isOpen = false
			continue
		}
		name := e.path[len(keyPath)]
		if isOpen && name == open {
			ps := out[name]
			ps[len(ps)-1].end, ps[len(ps)-1].last = e.end, i
			continue
		}
		p := piece{table: e.kind != exprKeyValue, inline: e.kind == exprKeyValue && len(e.path) == len(keyPath)+1,
			lead: e.start, start: e.start, end: e.end, first: i, last: i}
		if p.table {
			p.lead = leadComments(exprs, i)
		}
		out[name] = append(out[name], p)
		open, isOpen = name, true
	}
	return out, nil
}

// rewritable refuses to replace an entry held as one inline value: a TOML
// 1.1 inline table can span lines and hold the user's comments, which a
// table written in its place would lose.
func rewritable(ps []piece, key []string) error {
	for _, p := range ps {
		if p.inline {
			return fmt.Errorf("it is written inline (%s = { … } under [%s]), which chronicle does not rewrite; write it as its own [%s] table to let chronicle edit it",
				quoteKey(key[len(key)-1]), Dotted(key[:len(key)-1]), Dotted(key))
		}
	}
	return nil
}

// inlineMapError says why the entries under keyPath cannot be edited.
func inlineMapError(e expr, keyPath []string) error {
	form := "inline (" + Dotted(e.path) + " = …)"
	if e.kind == exprArrayTable {
		form = "as an array of tables ([[" + Dotted(e.path) + "]])"
	}
	return fmt.Errorf("%s is written %s, which chronicle does not rewrite; write each server as its own [%s] table to let chronicle edit it",
		Dotted(keyPath), form, Dotted(append(slices.Clone(keyPath), "<name>")))
}

// leadComments returns the start of the comment lines directly above
// exprs[i], with no blank line between.
func leadComments(exprs []expr, i int) int {
	start := exprs[i].start
	for j := i - 1; j >= 0 && exprs[j].kind == exprComment && exprs[j].end == start; j-- {
		start = exprs[j].start
	}
	return start
}

// insertionPoint returns where a new entry under keyPath goes: after the
// last expression of the last table section under keyPath, or at the end.
// Expressions marked gone (of entries an edit removes) are left out.
func insertionPoint(data []byte, exprs []expr, gone []bool, keyPath []string) int {
	point := len(data)
	inside := false
	for i, e := range exprs {
		if gone != nil && gone[i] {
			continue
		}
		switch e.kind {
		case exprTable, exprArrayTable:
			inside = hasPrefix(e.path, keyPath)
			if inside {
				point = e.end
			}
		case exprKeyValue:
			if inside {
				point = e.end
			}
		}
	}
	return point
}

// entryLines returns the line of the first expression of each entry under
// keyPath, counting lines once through the file.
func entryLines(data []byte, exprs []expr, keyPath []string) map[string]int {
	lines := map[string]int{}
	line, counted := 1, 0
	for _, e := range exprs {
		if e.kind == exprComment || len(e.path) <= len(keyPath) || !hasPrefix(e.path, keyPath) {
			continue
		}
		name := e.path[len(keyPath)]
		if _, ok := lines[name]; !ok {
			line += bytes.Count(data[counted:e.start], []byte{'\n'})
			counted = e.start
			lines[name] = line
		}
	}
	return lines
}
