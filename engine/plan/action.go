package plan

import "github.com/chronicle-dev/chronicle/engine/own"

// An Action is what a change does, shown by its symbol (the ledger's).
type Action = own.Action

// The actions of SPEC §6.
const (
	NoOp     = own.NoOp
	Create   = own.Create   // +
	Update   = own.Update   // ~
	Delete   = own.Delete   // -
	Replace  = own.Replace  // -/+
	Conflict = own.Conflict // ! : will not be applied
	Read     = own.Read     // <= : a note, never counted
	Ignore   = own.Ignore   // = : left alone on this machine, never counted
)
