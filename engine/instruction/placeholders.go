package instruction

import (
	"sort"
	"strings"
)

// Arguments is the placeholder of everything typed after a command's name,
// in Claude Code's spelling, which the configuration uses.
const Arguments = "$ARGUMENTS"

// A Table maps each placeholder of a command body ($ARGUMENTS, $1 … $9) to
// one tool's spelling of it. A placeholder the table lacks is one the tool
// cannot express.
type Table map[string]string

// Placeholders returns the placeholders body uses, each once, in the order
// of first use. A positional placeholder is $ and one digit 1–9 not
// followed by another digit ($10 is not one).
func Placeholders(body string) []string {
	var out []string
	seen := map[string]bool{}
	scan(body, func(p string) string {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
		return p
	})
	return out
}

// Translate returns body with each placeholder spelled as the tool spells
// it, and the placeholders the tool cannot express (left as they were).
func (t Table) Translate(body string) (string, []string) {
	var missing []string
	out := scan(body, func(p string) string {
		if s, ok := t[p]; ok {
			return s
		}
		for _, m := range missing {
			if m == p {
				return p
			}
		}
		missing = append(missing, p)
		return p
	})
	return out, missing
}

// Reverse returns body with the tool's spellings turned back into Claude
// Code's, for reading a tool's file into the configuration.
func (t Table) Reverse(body string) string {
	spellings := make([]string, 0, len(t))
	back := map[string]string{}
	for p, s := range t {
		if s != p {
			spellings = append(spellings, s)
			back[s] = p
		}
	}
	if len(spellings) == 0 {
		return body
	}
	// Longest first, so that no spelling is cut short by another that is
	// its prefix; sorted, so that the result never depends on map order.
	sort.Slice(spellings, func(i, j int) bool {
		if len(spellings[i]) != len(spellings[j]) {
			return len(spellings[i]) > len(spellings[j])
		}
		return spellings[i] < spellings[j]
	})
	pairs := make([]string, 0, 2*len(spellings))
	for _, s := range spellings {
		pairs = append(pairs, s, back[s])
	}
	return strings.NewReplacer(pairs...).Replace(body)
}

// scan rewrites each placeholder of body with f.
func scan(body string, f func(string) string) string {
	var b strings.Builder
	for i := 0; i < len(body); {
		if body[i] != '$' {
			j := strings.IndexByte(body[i:], '$')
			if j < 0 {
				b.WriteString(body[i:])
				break
			}
			b.WriteString(body[i : i+j])
			i += j
			continue
		}
		switch rest := body[i+1:]; {
		case strings.HasPrefix(rest, "ARGUMENTS"):
			b.WriteString(f(Arguments))
			i += 1 + len("ARGUMENTS")
		case len(rest) > 0 && rest[0] >= '1' && rest[0] <= '9' && (len(rest) == 1 || rest[1] < '0' || rest[1] > '9'):
			b.WriteString(f("$" + rest[:1]))
			i += 2
		default:
			b.WriteByte('$')
			i++
		}
	}
	return b.String()
}
