package observe

import (
	"slices"

	"github.com/chronicle-dev/chronicle/engine/markers"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// Block is the kind of a marked block in a file shared with the user (Hash:
// the hash of its body, LF line ends).
const Block = "block"

// BlockIn observes block id of the file f, as a View read it, whose markers
// parsed reads (nil: a file without blocks): the hash of its body, or
// absent, with the file's facts.
func BlockIn(f *toolfile.File, parsed *markers.File, id string) Observation {
	o := Observation{Kind: Absent, File: Facts(f)}
	if parsed != nil {
		if b, ok := parsed.Block(id); ok {
			o.Kind, o.Hash = Block, BodyHash(parsed.Body(b))
		}
	}
	return o
}

// BodyHash is the hash of a block's body, which the state records.
func BodyHash(body string) string { return toolfile.Hash([]byte(body)) }

// Rule is the kind of a permission rule in a list shared with the user
// (Hash: the hash of the rule's text).
const Rule = "rule"

// RuleIn observes rule in the list rules of the file f, as a View read it:
// the hash of its text, or absent, with the file's facts.
func RuleIn(f *toolfile.File, rules []string, rule string) Observation {
	o := Observation{Kind: Absent, File: Facts(f)}
	if slices.Contains(rules, rule) {
		o.Kind, o.Hash = Rule, RuleHash(rule)
	}
	return o
}

// RuleHash is the hash of a rule's text, which the state records.
func RuleHash(rule string) string { return toolfile.Hash([]byte(rule)) }
