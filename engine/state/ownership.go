package state

import "slices"

// EntryAt returns the record of the entry chronicle wrote under name at
// keyPath in file, or nil when chronicle wrote none there.
func (s *State) EntryAt(file string, keyPath []string, name string) *Entry {
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.File == file && e.Name == name && slices.Equal(e.KeyPath, keyPath) {
			return e
		}
	}
	return nil
}

// LinkAt returns the record of the link or copy chronicle made at path, or
// nil.
func (s *State) LinkAt(path string) *Link {
	for i := range s.Links {
		if s.Links[i].Path == path {
			return &s.Links[i]
		}
	}
	return nil
}
