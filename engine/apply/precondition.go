package apply

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/plan"
)

// A changedError says a change's target is no longer what the plan saw.
type changedError struct {
	addr, path string
	before     observe.Observation
	now        observe.Observation
}

func (e *changedError) Error() string {
	return fmt.Sprintf("%s: %s changed since the plan: %s; nothing there was touched (run chronicle plan again)", e.addr, e.path, e.before.Difference(e.now))
}

// precondition is apply's one check before any change: the target is
// observed again, through the same code the plan used, and must be what the
// plan saw. Entry and block changes are checked inside their file's
// transaction, against the bytes the transaction read.
func (a *applier) precondition(c plan.Change) error {
	if c.Before == nil {
		return nil // state-only
	}
	var now observe.Observation
	switch c.Kind {
	case plan.KindSkill:
		now = observe.Place(a.sys, c.Skill.Store)
	case plan.KindLink:
		now = observe.Place(a.sys, c.Link.Path)
	case plan.KindToolFile:
		now = observe.Place(a.sys, c.Path)
	case plan.KindFile:
		now = observe.Place(a.sys, c.File.Path)
	default:
		return nil
	}
	return check(c, now)
}

// check compares what is at c's target now with what the plan saw.
func check(c plan.Change, now observe.Observation) error {
	if now.Equal(*c.Before) {
		return nil
	}
	return &changedError{addr: c.Address, path: c.Path, before: *c.Before, now: now}
}
