package state

import (
	"errors"
	"slices"
	"time"
)

// Journal records in as about to happen and saves the state at once, so
// that a crash while the change is made leaves a record of it. It needs the
// state's file: call it on a state from Load, or after a Save.
func (s *State) Journal(in Intent) error {
	if s.path == "" {
		return errors.New("journalling " + in.Address + ": the state has no file; load it with state.Load first")
	}
	if in.Time.IsZero() {
		in.Time = time.Now().UTC()
	}
	s.Intents = append(s.Intents, in)
	if err := s.Save(s.path); err != nil {
		s.Intents = s.Intents[:len(s.Intents)-1]
		return err
	}
	return nil
}

// Done removes the intents journalled for address. It does not save: apply
// records the completed change and calls Done, then saves both at once.
func (s *State) Done(address string) {
	s.Intents = slices.DeleteFunc(s.Intents, func(in Intent) bool { return in.Address == address })
}

// DoneAll removes the intents journalled for every address in done, in one
// pass over the journal (apply completes thousands of changes).
func (s *State) DoneAll(done map[string]bool) {
	if len(done) == 0 {
		return
	}
	s.Intents = slices.DeleteFunc(s.Intents, func(in Intent) bool { return done[in.Address] })
}

// IntentsFor returns the intents journalled for address, oldest first.
func (s *State) IntentsFor(address string) []Intent {
	var out []Intent
	for _, in := range s.Intents {
		if in.Address == address {
			out = append(out, in)
		}
	}
	return out
}

// Intended reports whether an intent was journalled for want.Address that
// agrees with every other field set in want (Action, Path, File, KeyPath,
// Name, Target, Hash; Time is ignored). After a crash, a link or entry
// found on disk that matches such an intent is chronicle's own.
func (s *State) Intended(want Intent) bool {
	for _, in := range s.IntentsFor(want.Address) {
		if matches(want.Action, in.Action) && matches(want.Path, in.Path) &&
			matches(want.File, in.File) && matches(want.Name, in.Name) &&
			matches(want.Target, in.Target) && matches(want.Hash, in.Hash) &&
			(want.KeyPath == nil || slices.Equal(want.KeyPath, in.KeyPath)) {
			return true
		}
	}
	return false
}

func matches(want, got string) bool { return want == "" || want == got }
