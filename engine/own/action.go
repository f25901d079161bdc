package own

import (
	"encoding/json"
	"fmt"
)

// An Action is what a change does, shown by its symbol.
type Action int

// The actions of SPEC §6.
const (
	NoOp     Action = iota
	Create          // +
	Update          // ~
	Delete          // -
	Replace         // -/+
	Conflict        // ! : will not be applied
	Read            // <= : a note, never counted
	Ignore          // = : left alone on this machine, never counted
)

var actionNames = [...]string{"no-op", "create", "update", "delete", "replace", "conflict", "read", "ignore"}
var actionSymbols = [...]string{" ", "+", "~", "-", "-/+", "!", "<=", "="}

// Changes reports whether the action changes something on disk: create,
// update, delete or replace.
func (a Action) Changes() bool { return a >= Create && a <= Replace }

// String returns the action's name as used in JSON: create, update, ….
func (a Action) String() string { return actionNames[a] }

// Symbol returns the action's symbol: + ~ - -/+ ! <=.
func (a Action) Symbol() string { return actionSymbols[a] }

// MarshalJSON writes the action's name.
func (a Action) MarshalJSON() ([]byte, error) { return json.Marshal(a.String()) }

// UnmarshalJSON reads an action's name.
func (a *Action) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	for i, n := range actionNames {
		if n == s {
			*a = Action(i)
			return nil
		}
	}
	return fmt.Errorf("unknown action %q", s)
}
