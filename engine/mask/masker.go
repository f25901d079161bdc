package mask

import (
	"sort"
	"strings"
)

// A Masker also hides known literal values wherever they appear: the values of
// variables declared sensitive, and secrets the hub resolved at launch.
type Masker struct {
	literals []string
}

// Add registers values to hide in every later Text call. Values shorter than
// four characters are ignored: masking them would garble ordinary text.
func (m *Masker) Add(values ...string) {
	for _, v := range values {
		if len(v) >= 4 {
			m.literals = append(m.literals, v)
		}
	}
	// Longest first, so a value that contains another is hidden whole.
	sort.Slice(m.literals, func(i, j int) bool { return len(m.literals[i]) > len(m.literals[j]) })
}

// Text masks free text: registered literals, credential-shaped tokens and
// URL passwords.
func (m *Masker) Text(s string) string {
	if m != nil {
		for _, lit := range m.literals {
			if strings.Contains(s, lit) {
				s = strings.ReplaceAll(s, lit, Hide(lit))
			}
		}
	}
	return Value(s)
}

// Literals returns the registered values.
func (m *Masker) Literals() []string {
	if m == nil {
		return nil
	}
	return append([]string(nil), m.literals...)
}
