package state

import "strings"

// An Index finds the state's records of entries and links by address and
// by place without a pass over the lists: a plan of thousands of entries
// asks once per entry. It describes the state as it was when Index was
// called; build it for a state that does not change while it is used (a
// plan, a scan).
type Index struct {
	s          *State
	entryAt    map[string]*Entry
	entryAddr  map[string]*Entry
	linkAddr   map[string]*Link
	linkAtPath map[string]*Link
}

// Index returns an index of the state's records as they are now.
func (s *State) Index() *Index {
	x := &Index{s: s,
		entryAt: make(map[string]*Entry, len(s.Entries)), entryAddr: make(map[string]*Entry, len(s.Entries)),
		linkAddr: make(map[string]*Link, len(s.Links)), linkAtPath: make(map[string]*Link, len(s.Links)),
	}
	// The first record of a place or address wins, as the lists' own
	// lookups find it.
	for i := range s.Entries {
		e := &s.Entries[i]
		putFirst(x.entryAt, placeKey(e.File, e.KeyPath, e.Name), e)
		putFirst(x.entryAddr, e.Address, e)
	}
	for i := range s.Links {
		l := &s.Links[i]
		putFirst(x.linkAddr, l.Address, l)
		putFirst(x.linkAtPath, l.Path, l)
	}
	return x
}

func putFirst[V any](m map[string]*V, k string, v *V) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

func placeKey(file string, keyPath []string, name string) string {
	return file + "\x00" + strings.Join(keyPath, "\x00") + "\x00\x00" + name
}

// EntryAt is State.EntryAt.
func (x *Index) EntryAt(file string, keyPath []string, name string) *Entry {
	return x.entryAt[placeKey(file, keyPath, name)]
}

// Entry returns the record of the entry at address, or nil.
func (x *Index) Entry(address string) *Entry { return x.entryAddr[address] }

// Link returns the record of the link at address, or nil.
func (x *Index) Link(address string) *Link { return x.linkAddr[address] }

// LinkAt is State.LinkAt.
func (x *Index) LinkAt(path string) *Link { return x.linkAtPath[path] }
