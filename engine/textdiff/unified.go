package textdiff

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Context is the number of unchanged lines shown around each change.
const Context = 3

type line struct {
	op   diffmatchpatch.Operation
	text string
}

// Unified returns the unified diff from a to b, labelled fromName and
// toName, or "" when they are equal.
func Unified(fromName, toName, a, b string) string {
	if a == b {
		return ""
	}
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)

	var all []line
	for _, d := range diffs {
		for _, l := range splitLines(d.Text) {
			all = append(all, line{d.Type, l})
		}
	}

	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", fromName, toName)
	for i := 0; i < len(all); {
		if all[i].op == diffmatchpatch.DiffEqual {
			i++
			continue
		}
		// A hunk runs from Context lines before this change to Context lines
		// after the last change that is at most 2*Context lines further on.
		start := max(0, i-Context)
		end := i
		for j := i; j < len(all); j++ {
			if all[j].op != diffmatchpatch.DiffEqual {
				end = j
			} else if j-end > 2*Context {
				break
			}
		}
		stop := min(len(all), end+Context+1)
		writeHunk(&out, all, start, stop)
		i = stop
	}
	return out.String()
}

func writeHunk(out *strings.Builder, all []line, start, stop int) {
	aLine, bLine := 1, 1
	for _, l := range all[:start] {
		if l.op != diffmatchpatch.DiffInsert {
			aLine++
		}
		if l.op != diffmatchpatch.DiffDelete {
			bLine++
		}
	}
	var aCount, bCount int
	var body strings.Builder
	for _, l := range all[start:stop] {
		text := strings.TrimSuffix(l.text, "\n")
		switch l.op {
		case diffmatchpatch.DiffEqual:
			aCount++
			bCount++
			body.WriteString(" " + text + "\n")
		case diffmatchpatch.DiffDelete:
			aCount++
			body.WriteString("-" + text + "\n")
		case diffmatchpatch.DiffInsert:
			bCount++
			body.WriteString("+" + text + "\n")
		}
		if !strings.HasSuffix(l.text, "\n") {
			body.WriteString("\\ No newline at end of file\n")
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", span(aLine, aCount), span(bLine, bCount))
	out.WriteString(body.String())
}

func span(start, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if count == 1 {
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
