package tomlfile

import (
	"bytes"
	"fmt"
)

// A piece is one run of consecutive expressions belonging to an entry. An
// entry usually is one piece ([a.x] and [a.x.env] one after the other), but
// TOML lets its sub-tables or dotted keys be spread over the file.
type piece struct {
	table bool // begins with a table header: [a.x] or [[a.x]]
	lead  int  // start of the comment lines directly above the header, or start
	start int
	end   int
}

// pieces finds the runs of expressions that make up the entry at key. It
// fails when the entry sits inside an inline table or an array of tables,
// which cannot be spliced one entry at a time.
func pieces(exprs []expr, key []string) ([]piece, error) {
	var out []piece
	open := false
	for i, e := range exprs {
		if e.kind == exprComment {
			continue
		}
		if len(e.path) < len(key) && hasPrefix(key, e.path) && e.kind != exprTable {
			return nil, fmt.Errorf("%s holds %s as an inline value or array of tables; edit it by hand", Dotted(e.path), Dotted(key))
		}
		if !hasPrefix(e.path, key) {
			open = false
			continue
		}
		if open {
			out[len(out)-1].end = e.end
			continue
		}
		p := piece{table: e.kind != exprKeyValue, lead: e.start, start: e.start, end: e.end}
		if p.table {
			p.lead = leadComments(exprs, i)
		}
		out = append(out, p)
		open = true
	}
	return out, nil
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
func insertionPoint(data []byte, exprs []expr, keyPath []string) int {
	point := len(data)
	inside := false
	for _, e := range exprs {
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
