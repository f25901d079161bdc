package plan

import (
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
)

// A ruleSubject is one permission rule in a list chronicle shares with the
// user (Devin's permissions.deny), as the ownership ledger sees it:
// chronicle owns the one string, never the list nor the user's rules.
type ruleSubject struct {
	file, rule string
	// present says the list holds the rule now.
	present bool
}

func (s ruleSubject) What() string { return "deny rule " + s.rule + " in " + s.file }

func (s ruleSubject) Seen() own.Seen {
	if !s.present {
		return own.Seen{Absent: true}
	}
	return own.Seen{Hash: observe.RuleHash(s.rule), Declared: true}
}

// Diff is empty: the rule is one string, there or not.
func (s ruleSubject) Diff() string { return "" }
