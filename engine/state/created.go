package state

import "slices"

// Created reports whether apply created the tool file at path (no file
// was there) and the file still holds one of chronicle's entries.
func (s *State) Created(path string) bool { return slices.Contains(s.CreatedFiles, path) }

// AddCreated records that apply created the tool file at path.
func (s *State) AddCreated(path string) {
	if !s.Created(path) {
		s.CreatedFiles = append(s.CreatedFiles, path)
	}
}

// PruneCreated forgets the created files that hold none of chronicle's
// entries any more: removed with their last entry, or kept because they
// held more than chronicle wrote. A file chronicle no longer writes to is
// the user's from then on.
func (s *State) PruneCreated() {
	if len(s.CreatedFiles) == 0 {
		return
	}
	held := map[string]bool{}
	for _, e := range s.Entries {
		held[e.File] = true
	}
	s.CreatedFiles = slices.DeleteFunc(s.CreatedFiles, func(p string) bool { return !held[p] })
}
