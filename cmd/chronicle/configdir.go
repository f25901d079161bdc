package main

import (
	"fmt"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/state"
)

// moveStateFlag is the flag of init and adopt that records their directory
// as the configuration of a state another directory last applied.
const moveStateFlag = "--move-state"

// resolvedDir is dir as the state records it: absolute, symlinks resolved
// (a folder that does not resolve stays as given, made absolute). Two
// spellings of one folder compare equal.
func resolvedDir(dir string) string {
	if dir == "" {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// otherConfigDir returns the folder that last applied st when it is not
// dir ("" when it is, or when the state does not say).
func otherConfigDir(st *state.State, dir string) string {
	if st.ConfigDir == "" || resolvedDir(st.ConfigDir) == resolvedDir(dir) {
		return ""
	}
	return st.ConfigDir
}

// showDir names a configuration folder for people: ~/… under the home;
// sync's checkout is named as such, since it is the repository's folder.
func (m *workspace) showDir(dir string) string {
	if resolvedDir(dir) == resolvedDir(filepath.Join(m.chronicleHome, "source")) {
		return tildePath(m.home, dir) + " (the checkout chronicle sync applies)"
	}
	return tildePath(m.home, dir)
}

// checkStateDir refuses to adopt into dir while the state holds what
// another configuration folder applied: the takeover would record dir's
// blocks over that folder's (a service of the same name would become
// another server), unless move says so on purpose.
func (a *app) checkStateDir(dir string, move bool) error {
	m, err := a.workspace(nil)
	if err != nil {
		return err
	}
	st, err := m.loadState()
	if err != nil {
		return err
	}
	other := otherConfigDir(st, dir)
	held := len(st.Entries) + len(st.Links) + len(st.Services) + len(st.Skills)
	if other == "" || held == 0 || move {
		return nil
	}
	return failf("the state (%s) holds %d entries, links, services and skills applied from the configuration in %s, not %s: "+
		"run chronicle adopt in %s to adopt into that configuration, or pass %s to make %s the configuration chronicle applies from",
		tildePath(m.home, m.statePath()), held, m.showDir(other), m.showDir(dir), m.showDir(other), moveStateFlag, m.showDir(dir))
}

// stateDirNote is the line plan and apply print when the state was last
// applied from another folder than the configuration they plan ("" when
// not).
func (m *workspace) stateDirNote(st *state.State, dir string) string {
	other := otherConfigDir(st, dir)
	if other == "" {
		return ""
	}
	return fmt.Sprintf("Note: the state was last applied from %s, not from this configuration (%s).", m.showDir(other), m.showDir(dir))
}
