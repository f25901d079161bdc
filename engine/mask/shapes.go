package mask

import "strings"

// The shape rules (SPEC §6) find the tokens the regular expression in
// shapes_test.go (tokenShapes) finds, leftmost first and in its order of
// alternatives: sk-…, gh?_…, github_pat_…, xox?-…, lin_api_…, a JWT, a run of
// 32 or more hex digits between word boundaries, a run of 32 or more base64
// characters. They are written out by hand because every output a person
// reads passes through them: Go's regexp runs this expression at about a
// megabyte a second, the scan below at the speed of a byte loop, and it
// reads each byte a bounded number of times whatever the input.

// Character sets of the token parts.
const (
	setSk     = iota // [A-Za-z0-9_-]: sk-…, JWT parts
	setAlnum         // [A-Za-z0-9]: gh?_…, lin_api_…
	setPat           // [A-Za-z0-9_]: github_pat_…
	setXox           // [A-Za-z0-9-]: xox?-…
	setHex           // [0-9a-fA-F]
	setBase64        // [A-Za-z0-9+/_-]
	setJWT2          // setSk again, for a JWT's second part
	setJWT3          // and its third
	numSets
)

func inSet(set int, c byte) bool {
	alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	switch set {
	case setSk, setJWT2, setJWT3:
		return alnum || c == '_' || c == '-'
	case setAlnum:
		return alnum
	case setPat:
		return alnum || c == '_'
	case setXox:
		return alnum || c == '-'
	case setHex:
		return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	default: // setBase64
		return alnum || c == '_' || c == '-' || c == '+' || c == '/'
	}
}

// A shapeScanner finds the shapes in one string. It remembers, per set, the
// last run it measured: a run that starts inside it ends where it ends, so
// no byte is measured twice for the same set.
type shapeScanner struct {
	s          string
	start, end [numSets]int
}

// run returns the end of the run of set characters that starts at i.
func (sc *shapeScanner) run(set, i int) int {
	if sc.start[set] <= i && i < sc.end[set] {
		return sc.end[set]
	}
	j := i
	for j < len(sc.s) && inSet(set, sc.s[j]) {
		j++
	}
	if j > i {
		sc.start[set], sc.end[set] = i, j
	}
	return j
}

func isWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// boundary reports whether \b holds before s[i].
func (sc *shapeScanner) boundary(i int) bool {
	before := i > 0 && isWord(sc.s[i-1])
	after := i < len(sc.s) && isWord(sc.s[i])
	return before != after
}

// at returns the end of the shape that starts at i, or -1.
func (sc *shapeScanner) at(i int) int {
	s := sc.s[i:]
	prefixed := func(n, set int) int {
		if e := sc.run(set, i+n); e-(i+n) >= 8 {
			return e
		}
		return -1
	}
	switch {
	case strings.HasPrefix(s, "sk-"):
		if e := prefixed(3, setSk); e > 0 {
			return e
		}
	case len(s) > 3 && s[:2] == "gh" && strings.IndexByte("pousr", s[2]) >= 0 && s[3] == '_':
		if e := prefixed(4, setAlnum); e > 0 {
			return e
		}
	case strings.HasPrefix(s, "github_pat_"):
		if e := prefixed(11, setPat); e > 0 {
			return e
		}
	case len(s) > 4 && s[:3] == "xox" && strings.IndexByte("abposr", s[3]) >= 0 && s[4] == '-':
		if e := prefixed(5, setXox); e > 0 {
			return e
		}
	case strings.HasPrefix(s, "lin_api_"):
		if e := prefixed(8, setAlnum); e > 0 {
			return e
		}
	case strings.HasPrefix(s, "eyJ"):
		if e := sc.jwt(i); e > 0 {
			return e
		}
	}
	if !sc.boundary(i) {
		return -1
	}
	if e := sc.run(setHex, i); e-i >= 32 && (e == len(sc.s) || !isWord(sc.s[e])) {
		return e
	}
	if e := sc.run(setBase64, i); e-i >= 32 {
		for n := 0; n < 2 && e < len(sc.s) && sc.s[e] == '='; n++ {
			e++
		}
		return e
	}
	return -1
}

// jwt returns the end of eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*
// at i, or -1.
func (sc *shapeScanner) jwt(i int) int {
	e1 := sc.run(setSk, i+3)
	if e1-(i+3) < 8 || e1 >= len(sc.s) || sc.s[e1] != '.' {
		return -1
	}
	e2 := sc.run(setJWT2, e1+1)
	if e2-(e1+1) < 8 || e2 >= len(sc.s) || sc.s[e2] != '.' {
		return -1
	}
	return sc.run(setJWT3, e2+1)
}

// replaceShapes returns s with every shape replaced by repl(shape).
func replaceShapes(s string, repl func(tok string) string) string {
	sc := shapeScanner{s: s}
	var b strings.Builder
	last := 0 // s[:last] is in b
	for i := 0; i < len(s); {
		// Only a prefix's first letter or a word boundary starts a shape.
		if c := s[i]; !sc.boundary(i) && c != 's' && c != 'g' && c != 'x' && c != 'l' && c != 'e' {
			i++
			continue
		}
		e := sc.at(i)
		if e < 0 {
			i++
			continue
		}
		if r := repl(s[i:e]); r != s[i:e] {
			b.WriteString(s[last:i])
			b.WriteString(r)
			last = e
		}
		i = e
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
