package plan

import (
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// removals plans what the state records and the configuration no longer
// wants. chronicle removes only what it made and what is unchanged since: a
// link that still points into the central store, a copy whose tree is the
// one made, an entry whose hash is the one written, a central skill as
// imported. Anything changed is a conflict, left in place.
func (b *builder) removals() {
	for _, e := range b.st.Entries {
		switch claim := b.entryClaims[locationKey(e.File, e.KeyPath, e.Name)]; {
		case claim == e.Address:
			continue // still wanted at the same place
		case claim != "":
			continue // taken over by another address (a renamed link)
		case b.kept[e.Address]:
			continue // wanted, but not planned on this machine (keepUnplanned)
		}
		b.removeEntry(e)
	}
	for _, l := range b.st.Links {
		if b.desired[l.Address] && b.claimed[l.Path] == l.Address || b.kept[l.Address] {
			continue
		}
		b.removeLink(l)
	}
	b.fileRemovals()
	b.ruleRemovals()
	for _, name := range sortedKeys(b.st.Skills) {
		addr := "skill." + name
		if b.desired[addr] || b.skillWanted(name) {
			continue
		}
		rec := b.st.Skills[name]
		spec := &SkillSpec{Name: name, Store: storePath(b.in.StoreDir, name), Hash: rec.Hash}
		before := observe.PlaceWith(b.observed, spec.Store)
		c := Change{Address: addr, Kind: KindSkill, Action: Delete, Path: spec.Store, Skill: spec, Before: &before}
		switch {
		case before.Kind == observe.Absent:
			c.Reason = "already gone; forgetting it"
		case before.Kind == observe.Dir && before.Hash == rec.Hash:
			c.Reason = "no longer declared; a snapshot is kept"
		default:
			c.Action, c.Reason = Conflict, "no longer declared, but edited in place since the last apply; not removed (chronicle state rm "+ShellQuote(addr)+" lets go of it)"
		}
		b.plan.Changes = append(b.plan.Changes, c)
	}
	for _, name := range sortedKeys(b.st.Services) {
		if !b.desired["service."+name] {
			svc := b.st.Services[name]
			b.plan.Changes = append(b.plan.Changes, Change{Address: "service." + name, Kind: KindService, Action: Delete, Service: &svc})
		}
	}
	for _, name := range sortedKeys(b.st.Policies) {
		if !b.desired["policy."+name] {
			b.plan.Changes = append(b.plan.Changes, Change{Address: "policy." + name, Kind: KindPolicy, Action: Delete})
		}
	}
	for _, name := range sortedKeys(b.st.Profiles) {
		if !b.desired["profile."+name] {
			b.plan.Changes = append(b.plan.Changes, Change{Address: "profile." + name, Kind: KindProfile, Action: Delete})
		}
	}
	if b.st.Hub != nil && !b.desired["hub"] {
		b.plan.Changes = append(b.plan.Changes, Change{Address: "hub", Kind: KindHub, Action: Delete})
	}
	if b.st.Chronova != nil && !b.desired["chronova"] {
		b.plan.Changes = append(b.plan.Changes, Change{Address: "chronova", Kind: KindChronova, Action: Delete})
	}
}

// skillWanted reports whether a skill is still declared (a git skill's
// include names count).
func (b *builder) skillWanted(name string) bool {
	for _, n := range b.cfg.SkillNames() {
		if n == name {
			return true
		}
	}
	return false
}

func (b *builder) removeEntry(e state.Entry) {
	loc := provider.Location{Tool: e.Tool, Scope: e.Scope, Project: e.Project, File: e.File, KeyPath: e.KeyPath}
	spec := &EntrySpec{Location: loc, Entry: provider.Entry{Name: e.Name}}
	c := Change{Address: e.Address, Kind: KindEntry, Action: Delete, Path: e.File, Entry: spec}
	p, ok := b.tools[e.Tool]
	if !ok {
		c.Action, c.Reason = Conflict, "the tool "+e.Tool+" is no longer known; not removed (chronicle state rm "+ShellQuote(e.Address)+" lets go of it)"
		b.plan.Changes = append(b.plan.Changes, c)
		return
	}
	found, f, err := b.view.Find(p, loc, e.Name)
	if err != nil {
		b.cannotRead(e.Address, e.Tool, e.File, err)
		return
	}
	before := observe.Found(f, found)
	c.Before = &before
	subject := entrySubject{b: b, addr: e.Address, tool: e.Tool, p: p, want: provider.Entry{Name: e.Name}, found: found, owned: e.Extra}
	b.decided(&c, own.Release(own.Case{Address: e.Address, Subject: subject, Record: own.EntryRecord(p, &e, found),
		Ignored: b.ignored(e.Address), Commands: b.in.Commands}))
	if before.Kind != observe.Absent {
		b.fileConflict(&c, f)
	}
	b.plan.Changes = append(b.plan.Changes, c)
}

func (b *builder) removeLink(l state.Link) {
	spec := &LinkSpec{Tool: l.Tool, Path: l.Path, Target: l.Target, Mode: l.Mode, Hash: l.Hash}
	before := observe.Place(b.in.Reader, l.Path)
	c := Change{Address: l.Address, Kind: KindLink, Action: Delete, Path: l.Path, Link: spec, Before: &before}
	subject := linkSubject{path: l.Path, mode: l.Mode, seen: before, target: l.Target, hash: l.Hash, rec: &l}
	b.decided(&c, own.Release(own.Case{Address: l.Address, Subject: subject, Record: subject.record(),
		Ignored: b.ignored(l.Address), Commands: b.in.Commands}))
	b.plan.Changes = append(b.plan.Changes, c)
}

// destroyGuard refuses a plan that would remove everything chronicle
// manages, unless --destroy, when that is the sign of running from the
// wrong directory: the state was applied from another one, or this
// configuration declares nothing at all. A configuration that still
// declares services or skills and drops its links was edited on purpose.
func (b *builder) destroyGuard() {
	managed := len(b.st.Links) + len(b.st.Entries) + len(b.st.Skills) + len(b.st.Blocks) + len(b.st.Files) + len(b.st.Rules)
	if managed == 0 || b.in.Destroy {
		return
	}
	elsewhere := b.st.ConfigDir != "" && b.st.ConfigDir != b.cfg.Dir
	// Blocks absent on this machine (when = false) are declared too: a
	// configuration of work-only blocks on a home machine was written so.
	if !elsewhere && (len(b.cfg.Services) > 0 || len(b.cfg.Skills) > 0 || len(b.cfg.Links) > 0 || len(b.cfg.Absent) > 0 ||
		len(b.cfg.Rules)+len(b.cfg.Commands)+len(b.cfg.Agents) > 0) {
		return
	}
	removed := 0
	for _, c := range b.plan.Changes {
		if c.Action == Delete && (c.Kind == KindLink || c.Kind == KindEntry || c.Kind == KindSkill || c.Kind == KindBlock || c.Kind == KindFile || c.Kind == KindRule) {
			removed++
		}
	}
	if removed < managed {
		return
	}
	detail := "This plan would remove everything chronicle manages (%d links, entries, skills, blocks, files and rules)."
	if elsewhere {
		detail += " They were applied from " + b.st.ConfigDir + ", not " + b.cfg.Dir + ": run chronicle from there (or --chdir it)."
	}
	detail += " If that is really what you want: " + b.in.Commands.Destroy() + "."
	b.diag("error", "", "Refusing to remove everything", detail, managed)
}
