package config

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/instruction"
)

// linkInstructionAttrs names the link attribute of each kind.
var linkInstructionAttrs = map[string]string{
	instruction.Rule:    "rules",
	instruction.Command: "commands",
	instruction.Agent:   "agents",
}

// decodeLinkInstructions decodes a link's rules, commands and agents,
// records where each was written, and reports whether any is set.
func (l *loader) decodeLinkInstructions(d *decoder, k *Link, a hcl.Attributes, ranges map[string]hcl.Range) bool {
	set := false
	for _, kind := range instruction.Kinds {
		attr := a[linkInstructionAttrs[kind]]
		if attr == nil {
			continue
		}
		set = true
		ranges[kind] = attr.Expr.Range()
		names, _ := d.strList(attr)
		switch kind {
		case instruction.Rule:
			k.Rules = names
		case instruction.Command:
			k.Commands = names
		case instruction.Agent:
			k.Agents = names
		}
	}
	return set
}

// Wants returns the names of a kind a link names ("*" kept as it is).
func (l *Link) Wants(kind string) []string {
	switch kind {
	case instruction.Rule:
		return l.Rules
	case instruction.Command:
		return l.Commands
	case instruction.Agent:
		return l.Agents
	}
	return nil
}

// LinkedInstructions returns the blocks of a kind a link gives its tools, in
// declaration order: every block of the kind for "*".
func (c *Config) LinkedInstructions(l *Link, kind string) []*Instruction {
	wants := l.Wants(kind)
	for _, w := range wants {
		if w == "*" {
			return c.Instructions(kind)
		}
	}
	var out []*Instruction
	for _, w := range wants {
		if in := c.Instruction(kind, w); in != nil {
			out = append(out, in)
		}
	}
	return out
}

// checkLinkInstructions reports names of rules, commands and agents that
// no block declares.
func (l *loader) checkLinkInstructions(k *Link, r linkRanges, errorf func(rng hcl.Range, summary, detail string, args ...any)) {
	for _, kind := range instruction.Kinds {
		declared := l.cfg.InstructionNames(kind)
		set := setOf(declared)
		for _, name := range k.Wants(kind) {
			if name != "*" && !set[name] {
				errorf(r.instructions[kind], "Link to an undeclared "+kind, "The link %q names the %s %q, which no %s block declares.%s", k.Name, kind, name, kind, didYouMean(name, declared))
			}
		}
	}
}
