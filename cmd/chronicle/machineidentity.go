package main

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/machine"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// identityCheck compares the machine that last applied st with this one
// (facts): an error when a name from the machine file changed (unless
// --machine-renamed), else a note ("" for none) for a hostname that did.
func (m *workspace) identityCheck(st *state.State, facts machine.Facts, renamed bool) (string, error) {
	var recorded *machine.Identity
	if st.Machine != nil {
		recorded = &machine.Identity{Name: st.Machine.Name, From: st.Machine.From}
	}
	note, err := machine.CheckIdentity(recorded, facts.Identity(), tildePath(m.home, machine.Path(m.chronicleHome)), renamed)
	if err != nil {
		return "", failf("%s", err)
	}
	return note, nil
}

// checkIdentity is identityCheck with its note printed to stderr.
func (a *app) checkIdentity(m *workspace, st *state.State, facts machine.Facts, renamed bool) error {
	note, err := m.identityCheck(st, facts, renamed)
	if note != "" {
		fmt.Fprintln(a.stderr, note)
	}
	return err
}

// recordIdentity records this machine in st as the one that applies it,
// and reports whether that changed the state.
func recordIdentity(st *state.State, facts machine.Facts) bool {
	id := state.Machine{Name: facts.Name, From: facts.NameFrom}
	if st.Machine != nil && *st.Machine == id {
		return false
	}
	st.Machine = &id
	return true
}
