package apply

import (
	"fmt"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/plan"
)

// removeToolFile removes a tool file chronicle created, now that its last
// entry is gone. Its precondition has checked that the file holds exactly
// what the plan expected the entry removals to leave (the provider's empty
// document). The bytes are backed up, then the file is renamed aside, out
// of reach of its tool, and looked at again there: only when it is still
// exactly that is it deleted; otherwise it is put back.
func (a *applier) removeToolFile(c plan.Change) error {
	path := c.Path
	data, err := a.sys.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	a.backupsMu.Lock()
	err = a.backups.AddBytes(path, data, modeOf(a.sys, path), true)
	a.backupsMu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	aside := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".chronicle-removing")
	if err := a.sys.RenameNew(path, aside); err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	now := observe.Place(a.sys, aside)
	if !now.Equal(*c.Before) {
		if err := a.sys.RenameNew(aside, path); err != nil {
			return fmt.Errorf("%s: %s changed while being removed, and putting it back failed (it is at %s): %w", c.Address, path, aside, err)
		}
		return &changedError{addr: c.Address, path: path, before: *c.Before, now: now}
	}
	if err := a.sys.Remove(aside); err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	return nil
}
