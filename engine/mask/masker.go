package mask

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// A Masker also hides known literal values wherever they appear: the values of
// variables declared sensitive, and secrets the hub resolved at launch.
//
// A Masker is safe for concurrent use: the hub registers secrets while its
// handlers mask output. Add replaces the list of values instead of changing
// it (copy on write), so Text never waits and never sees half an update.
// The zero value is ready to use; a Masker must not be copied after first use.
type Masker struct {
	mu       sync.Mutex               // serialises Add
	literals atomic.Pointer[[]string] // longest first; never changed once stored
}

// Add registers values to hide in every later Text call. Values shorter than
// four characters are ignored: masking them would garble ordinary text.
func (m *Masker) Add(values ...string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	next := m.Literals()
	for _, v := range values {
		if len(v) >= 4 && !slices.Contains(next, v) {
			next = append(next, v)
		}
	}
	// Longest first, so a value that contains another is hidden whole.
	slices.SortStableFunc(next, func(a, b string) int { return len(b) - len(a) })
	m.literals.Store(&next)
}

// Text masks free text: registered literals, credential-shaped tokens and
// URL passwords.
func (m *Masker) Text(s string) string {
	for _, lit := range m.current() {
		if strings.Contains(s, lit) {
			s = strings.ReplaceAll(s, lit, Hide(lit))
		}
	}
	return Value(s)
}

// Literals returns a copy of the registered values.
func (m *Masker) Literals() []string {
	return slices.Clone(m.current())
}

// current returns the registered values as last stored; callers must not
// change the slice.
func (m *Masker) current() []string {
	if m == nil {
		return nil
	}
	if p := m.literals.Load(); p != nil {
		return *p
	}
	return nil
}
