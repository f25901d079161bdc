package plan

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// A RuleSpec is a permission rule chronicle adds to, or removes from, a
// list it shares with the user's own rules: a deny rule of Devin's
// permissions.deny (docs/decisions/0151).
type RuleSpec struct {
	Tool    string            `json:"tool"`
	Scope   string            `json:"scope,omitempty"`
	Project string            `json:"project,omitempty"`
	List    provider.DenyList `json:"list"`
	Rule    string            `json:"rule"`
	// RecordOnly says the rule is there already and is only recorded as
	// chronicle's (an import, or a record under a new address).
	RecordOnly bool `json:"record_only,omitempty"`
}

// ruleAddress is the address of the rule denying tool for the entry at
// entryAddr: link.L["devin"].service.github.deny["create_issue"].
func ruleAddress(entryAddr, tool string) string {
	return entryAddr + ".deny[" + strconv.Quote(tool) + "]"
}

// ruleEntry is the address of the entry a rule's address belongs to: a
// machine that ignores the entry, or keeps it unplanned, does the same
// with its rules.
func ruleEntry(addr string) string {
	if i := strings.LastIndex(addr, ".deny["); i >= 0 {
		return addr[:i]
	}
	return addr
}

func ruleKey(file string, keyPath []string, rule string) string {
	return locationKey(file, keyPath, rule)
}

// denyList returns the list of rules p keeps beside the file link l
// writes its entries to (Location.Deny); false when it keeps none, or
// when the plan was given no ListEditor to read it with.
func (b *builder) denyList(p provider.Provider, l *config.Link) (provider.Location, provider.DenyList, bool) {
	loc, ok := b.entryLocation(p, l.Project, l.Local)
	if !ok || loc.Deny == nil || b.in.Lists == nil {
		return provider.Location{}, provider.DenyList{}, false
	}
	return loc, *loc.Deny, true
}

// ruled splits a policy's deny list into the tools p can deny by a rule
// of their own (a name) and the rest (a glob, which no rule of chronicle
// spells): those stay the hub's. ok is false when p keeps no rules for the
// link's file.
func (b *builder) ruled(p provider.Provider, l *config.Link, tools []string) (named, globs []string, ok bool) {
	if _, _, ok := b.denyList(p, l); !ok {
		return nil, tools, false
	}
	for _, t := range tools {
		if strings.ContainsAny(t, `*?[\`) {
			globs = append(globs, t)
			continue
		}
		named = append(named, t)
	}
	return named, globs, true
}

// rulesIn reads the rules of list, once per plan.
func (b *builder) rulesIn(list provider.DenyList) (*toolfile.File, []string, error) {
	f := b.view.File(list.File)
	if f.Err != nil {
		return f, nil, fmt.Errorf("%s: %w", list.File, f.Err)
	}
	v, err := b.view.Parsed(list.File, func(_ string, src []byte) (any, error) { return b.in.Lists.Strings(list.File, src, list.KeyPath) })
	if err != nil {
		return f, nil, err
	}
	rules, _ := v.([]string)
	return f, rules, nil
}

// denyRules plans one rule per tool denied for the entry named server at
// entryAddr, in the list beside the file link l writes for the tool.
func (b *builder) denyRules(entryAddr, tool string, l *config.Link, p provider.Provider, server string, tools []string) {
	loc, list, ok := b.denyList(p, l)
	if !ok {
		return
	}
	f, rules, err := b.rulesIn(list)
	for _, t := range tools {
		addr := ruleAddress(entryAddr, t)
		rule := list.Rule(server, t)
		b.ruleClaims[ruleKey(list.File, list.KeyPath, rule)] = addr // still declared: never removed for it
		b.desired[addr] = true
		if err != nil {
			continue
		}
		b.planRule(addr, server, t, Change{Address: addr, Kind: KindRule, Path: list.File,
			Rule: &RuleSpec{Tool: tool, Scope: loc.Scope, Project: loc.Project, List: list, Rule: rule}}, f, rules)
	}
	if err != nil && !b.unreadable[list.File] {
		b.unreadable[list.File] = true
		b.diag("error", entryAddr, "Cannot edit "+filepath.Base(list.File), "%s (the deny rules of policy %q go there; chronicle never writes a file it cannot read and parse)", err, server)
	}
}

// planRule decides one wanted rule through the ownership ledger.
func (b *builder) planRule(addr, server, denied string, c Change, f *toolfile.File, rules []string) {
	spec := c.Rule
	before := observe.RuleIn(f, rules, spec.Rule)
	c.Before = &before
	want := observe.RuleHash(spec.Rule)
	var rec *own.Record
	if r := b.st.RuleAt(spec.List.File, spec.List.KeyPath, spec.Rule); r != nil {
		rec = &own.Record{Address: r.Address, Hash: r.Hash, Rendered: want}
	}
	subject := ruleSubject{file: spec.List.File, rule: spec.Rule, present: before.Kind != observe.Absent}
	d := own.Decide(own.Case{
		Address: addr, Subject: subject, Want: want, Record: rec,
		Replace: b.in.Replace[addr], Import: b.in.Import[addr], Ignored: b.ignored(addr) || b.ignored(ruleEntry(addr)),
		Intended: b.st.Intended(state.Intent{Address: addr, File: spec.List.File, Name: spec.Rule}),
		Commands: b.in.Commands,
	})
	b.decided(&c, d)
	if c.Action == Create && c.Reason == "" {
		c.Reason = fmt.Sprintf("denies tool %s of %s (policy %q)", denied, server, server)
	}
	spec.RecordOnly = d.RecordOnly
	b.fileConflict(&c, f)
	b.add(c)
}

// ruleRemovals plans the removal of each rule chronicle recorded that no
// declaration wants any more: through the ledger's Release, so only a rule
// chronicle wrote goes, never one of the user's.
func (b *builder) ruleRemovals() {
	for _, r := range b.st.Rules {
		if b.ruleClaims[ruleKey(r.File, r.KeyPath, r.Rule)] != "" || b.kept[r.Address] || b.kept[ruleEntry(r.Address)] {
			continue
		}
		list := provider.DenyList{File: r.File, KeyPath: r.KeyPath}
		spec := &RuleSpec{Tool: r.Tool, Scope: r.Scope, Project: r.Project, List: list, Rule: r.Rule}
		c := Change{Address: r.Address, Kind: KindRule, Action: Delete, Path: r.File, Rule: spec}
		if b.in.Lists == nil {
			c.Action, c.Reason = Conflict, "this plan reads no permission rules (it was given no list editor); not removed ("+b.in.Commands.StateRm(r.Address)+" lets go of it)"
			b.plan.Changes = append(b.plan.Changes, c)
			continue
		}
		f, rules, err := b.rulesIn(list)
		if err != nil {
			b.cannotRead(r.Address, r.Tool, r.File, err)
			continue
		}
		before := observe.RuleIn(f, rules, r.Rule)
		c.Before = &before
		subject := ruleSubject{file: r.File, rule: r.Rule, present: before.Kind != observe.Absent}
		b.decided(&c, own.Release(own.Case{Address: r.Address, Subject: subject, Record: &own.Record{Address: r.Address, Hash: r.Hash},
			Ignored: b.ignored(r.Address) || b.ignored(ruleEntry(r.Address)), Commands: b.in.Commands}))
		if before.Kind != observe.Absent {
			b.fileConflict(&c, f)
		}
		b.plan.Changes = append(b.plan.Changes, c)
	}
}

// notRuled names what of a policy no rule of chronicle's holds: its allow
// list, and the globs of its deny list.
func notRuled(allow bool, globs []string) string {
	var parts []string
	if allow {
		parts = append(parts, "the allow list (enabled_tools)")
	}
	if len(globs) > 0 {
		parts = append(parts, "the patterns "+strings.Join(globs, ", ")+" (disabled_tools)")
	}
	return strings.Join(parts, " and ")
}
