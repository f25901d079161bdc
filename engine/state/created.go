package state

// Created reports whether apply created the tool file at path (no file
// was there) and the file still holds one of chronicle's entries: each
// entry record in the file carries the flag.
func (s *State) Created(path string) bool {
	for _, e := range s.Entries {
		if e.File == path && e.Created {
			return true
		}
	}
	return false
}

// AddCreated records that apply created the tool file at path: every entry
// chronicle keeps in it carries the flag, so that it outlives the entry
// that created the file.
func (s *State) AddCreated(path string) {
	for i := range s.Entries {
		if s.Entries[i].File == path {
			s.Entries[i].Created = true
		}
	}
}
