package jsontool

import "sync"

// A Memo remembers a path learned from the Env last given to Locations, for
// Entries that need a file besides their own (Claude's approvals in
// ~/.claude.json, Gemini's exclusions in ~/.gemini). It belongs to one
// provider value: New returns a fresh one each time.
type Memo struct {
	mu sync.Mutex
	v  string
}

// Set records v.
func (m *Memo) Set(v string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.v = v
}

// Get returns what was recorded, "" before Locations was called.
func (m *Memo) Get() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.v
}
