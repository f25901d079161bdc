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

// Ownership is the one decision of whether an entry found in a tool's file
// is chronicle's: rec is the state's record of it (nil when chronicle did
// not write it), and changed says it was edited since (its hash is not the
// one recorded). Scan, plan and apply all ask this.
func (s *State) Ownership(file string, keyPath []string, name, hash string) (rec *Entry, changed bool) {
	return owned(s.EntryAt(file, keyPath, name), hash)
}

// owned is Ownership's rule for the record found.
func owned(rec *Entry, hash string) (*Entry, bool) {
	return rec, rec != nil && rec.Hash != hash
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
