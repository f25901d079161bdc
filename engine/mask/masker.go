package mask

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// A Masker is the one authority over the secret values chronicle knows in a
// process: resolved secret() references, sensitive variables, values taken
// from env() under secret-looking keys, URL credentials, the hub token, the
// Chronova key. Every value is registered with Add before any output can
// carry it, and every output surface masks through the Masker.
//
// A Masker never forgets a value during the process's lifetime, is safe for
// concurrent use, and reads without locking: Add publishes a new immutable
// set of values with a precompiled replacer, and readers load it atomically.
// The zero Masker is ready to use; a nil *Masker masks shapes only.
type Masker struct {
	mu  sync.Mutex // serialises Add
	set atomic.Pointer[literalSet]
}

// A literalSet is one published set of registered values.
type literalSet struct {
	values []string // longest first
	// forms are every spelling of every value that hide replaces.
	forms []string
	// hide replaces each value and its JSON-escaped and URL-encoded forms
	// with Hide(value); bare replaces them with the Bare placeholder.
	hide, bare *strings.Replacer
}

// NewMasker returns an empty Masker.
func NewMasker() *Masker { return &Masker{} }

// minLiteral is the shortest value worth registering: hiding every
// occurrence of a two-letter string would garble text and protect nothing.
const minLiteral = 4

// Bare is what a registered value becomes in MCP traffic to clients: a
// fixed placeholder that reveals nothing about the value, not even its start.
const Bare = "******"

// Add registers values to hide from every later output. Values shorter than
// four characters are ignored. Adding a value twice is harmless.
func (m *Masker) Add(values ...string) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var cur []string
	if s := m.set.Load(); s != nil {
		cur = s.values
	}
	next := slices.Clone(cur)
	changed := false
	for _, v := range values {
		if len(v) < minLiteral || slices.Contains(next, v) {
			continue
		}
		next = append(next, v)
		changed = true
	}
	if !changed {
		return
	}
	// Longest first, so a value that contains another is hidden whole.
	slices.SortStableFunc(next, func(a, b string) int { return len(b) - len(a) })
	m.set.Store(newLiteralSet(next))
}

func newLiteralSet(values []string) *literalSet {
	var hide, bare, spelled []string
	seen := map[string]bool{}
	for _, v := range values {
		for _, form := range forms(v) {
			if seen[form] {
				continue
			}
			seen[form] = true
			spelled = append(spelled, form)
			hide = append(hide, form, Hide(v))
			bare = append(bare, form, Bare)
		}
	}
	return &literalSet{values: values, forms: spelled, hide: strings.NewReplacer(hide...), bare: strings.NewReplacer(bare...)}
}

// forms returns the ways a value can appear in output: raw, escaped inside a
// JSON string, and URL-encoded (query and path escaping).
func forms(v string) []string {
	out := []string{v}
	if q := strconv.Quote(v); len(q) > 2 {
		if j := q[1 : len(q)-1]; j != v {
			out = append(out, j)
		}
	}
	if j := jsonEscape(v); j != v {
		out = append(out, j)
	}
	if e := url.QueryEscape(v); e != v {
		out = append(out, e)
	}
	if e := url.PathEscape(v); e != v {
		out = append(out, e)
	}
	return out
}

// jsonEscape returns v as encoding/json writes it inside a string (with its
// HTML escaping of < > &), without the quotes.
func jsonEscape(v string) string {
	var b strings.Builder
	for _, r := range v {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '<':
			b.WriteString(`\u003c`)
		case '>':
			b.WriteString(`\u003e`)
		case '&':
			b.WriteString(`\u0026`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00` + strconv.FormatInt(int64(r)>>4, 16) + strconv.FormatInt(int64(r)&0xf, 16))
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Text masks text meant for a person — CLI output, API answers, logs:
// registered values, credential-shaped tokens, URL passwords and
// secret-looking query parameters.
func (m *Masker) Text(text string) string {
	if set := m.load(); set != nil {
		// Registered values first: the shape rules could alter a value so
		// that the replacer no longer finds it.
		text = set.hide.Replace(text)
	}
	return Value(text)
}

// Literal replaces only the registered values in s, each with Bare, and
// leaves every other byte as it is. It is the rule for what the hub passes
// to MCP clients: no shape heuristics, which could corrupt a tool's data.
func (m *Masker) Literal(s string) string {
	if set := m.load(); set != nil {
		return set.bare.Replace(s)
	}
	return s
}

// Contains reports whether s holds a registered value in any of its forms.
func (m *Masker) Contains(s string) bool {
	set := m.load()
	return set != nil && set.bare.Replace(s) != s
}

// Across reports where a registered value, in any of its forms, lies
// across byte i of s: it starts before i and ends after it. Text cut at i
// would keep a part of that value that neither half masks whole; cutting at
// start or end keeps it whole on one side.
func (m *Masker) Across(s string, i int) (start, end int, ok bool) {
	set := m.load()
	if set == nil || i <= 0 || i >= len(s) {
		return 0, 0, false
	}
	for _, f := range set.forms {
		// An occurrence in this window starts in (i-len(f), i), so it
		// lies across i.
		from := max(0, i-len(f)+1)
		if k := strings.Index(s[from:min(len(s), i+len(f)-1)], f); k >= 0 {
			return from + k, from + k + len(f), true
		}
	}
	return 0, 0, false
}

// Literals returns the registered values, longest first.
func (m *Masker) Literals() []string {
	if set := m.load(); set != nil {
		return slices.Clone(set.values)
	}
	return nil
}

func (m *Masker) load() *literalSet {
	if m == nil {
		return nil
	}
	return m.set.Load()
}
