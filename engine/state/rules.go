package state

import "slices"

// A Rule is a permission rule chronicle added to a list it shares with the
// user's own rules: a deny rule mcp__SERVER__TOOL in Devin's
// permissions.deny (docs/decisions/0151). chronicle owns the one string,
// never the list: a rule it did not record is never removed.
type Rule struct {
	// Address wants the rule: the entry's address and the tool denied,
	// link.L["devin"].service.github.deny["create_issue"].
	Address string
	Tool    string
	Scope   string
	Project string
	// File and KeyPath are the list's file and key path in it.
	File    string
	KeyPath []string
	// Rule is the rule's text.
	Rule string
	// Hash is the hash of the rule's text as written.
	Hash string
}

// RuleAt returns the record of rule in the list at file and keyPath, or nil.
func (s *State) RuleAt(file string, keyPath []string, rule string) *Rule {
	for i := range s.Rules {
		if r := &s.Rules[i]; r.File == file && slices.Equal(r.KeyPath, keyPath) && r.Rule == rule {
			return r
		}
	}
	return nil
}

// SetRule records a rule, in place of an older record of the same place.
func (s *State) SetRule(r Rule) {
	if rec := s.RuleAt(r.File, r.KeyPath, r.Rule); rec != nil {
		*rec = r
		return
	}
	s.Rules = append(s.Rules, r)
}

// ForgetRule removes the record of rule in the list at file and keyPath.
func (s *State) ForgetRule(file string, keyPath []string, rule string) {
	s.Rules = slices.DeleteFunc(s.Rules, func(r Rule) bool {
		return r.File == file && slices.Equal(r.KeyPath, keyPath) && r.Rule == rule
	})
}
