package plan

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// links plans every link block: skills into tools' folders, services and
// the hub entry into tools' MCP configs. A link writes to the tools it
// names, present or not, and with tools = ["*"] to every tool present on
// this machine, each where it can: a tool that "*" brings and that keeps
// no skills folder, or no MCP config at the link's scope, gets nothing of
// that kind, and no error. A link whose project folder is not on this
// machine plans nothing, with a note. What this machine leaves out is
// kept in the state, never removed for that reason (keepUnplanned).
func (b *builder) links() {
	for _, l := range b.cfg.Links {
		if b.projectMissing(l) {
			b.keepUnplanned(l, nil)
			continue
		}
		if len(l.Tools) == 0 {
			b.noteNoTools(l)
		}
		tools, services, skills := b.cfg.LinkTools(l), b.cfg.LinkServices(l), linkedSkills(b.cfg, l)
		for _, tool := range tools {
			p, ok := b.tools[tool]
			if !ok {
				b.diag("error", linkAddress(l.Name, tool, "*"), "Unknown tool", "chronicle has no provider for %q.", tool)
				continue
			}
			star := !l.Names(tool)
			if _, ok := skillDir(p, b.in.Env, l.Project); !ok && (l.AllSkills() || star) {
				// "*" means every skill where the tool can hold skills,
				// and every tool present that can hold them.
				if !star && len(b.cfg.Skills) > 0 {
					b.note(linkAddress(l.Name, tool, "skill.*"), "No skills for "+tool,
						"%s keeps no skills folder%s, so link %q puts none of its skills there (skills = [\"*\"] takes every skill where a tool can hold them).", tool, where(l.Project), l.Name)
				}
			} else {
				for _, s := range skills {
					b.skillLink(l, tool, s, p)
				}
			}
			if star {
				if _, ok := b.entryLocation(p, l.Project, l.Local); !ok {
					continue // no MCP config at this scope: nothing for "*" to write
				}
			}
			for _, svc := range services {
				if l.PerService {
					b.serviceHubEntry(l, tool, svc, p)
				} else {
					b.serviceEntry(l, tool, svc, p)
				}
			}
			if l.Hub {
				b.hubEntry(l, tool, p, "")
			}
		}
		if l.AllTools() {
			b.keepUnplanned(l, tools)
		}
	}
	b.noteAbsent()
	b.noteLeftOut()
	b.dropIdleShares()
}

// dropIdleShares keeps the note "the same folder as X" only where X has a
// change to show: a plan with nothing to do at a shared folder says
// nothing about it.
func (b *builder) dropIdleShares() {
	if len(b.shares) == 0 {
		return
	}
	changed := map[string]bool{}
	for _, c := range b.plan.Changes {
		changed[c.Address] = true
	}
	b.plan.Changes = slices.DeleteFunc(b.plan.Changes, func(c Change) bool {
		other, shared := b.shares[c.Address]
		return shared && c.Action == Read && !changed[other]
	})
}

// linkedSkills returns the skill names a link takes, sorted.
func linkedSkills(cfg *config.Config, l *config.Link) []string {
	if l.AllSkills() {
		names := cfg.SkillNames()
		sort.Strings(names)
		return names
	}
	return l.Skills
}

// skillDir returns the folder a link puts skills in for a tool: user level,
// or the project's own folder when the link names a project.
func skillDir(p provider.Provider, env provider.Env, project string) (provider.SkillDir, bool) {
	if project != "" {
		env.Projects = []string{project}
	}
	for _, d := range p.SkillDirs(env) {
		if d.ReadOnly { // read for scan, never written
			continue
		}
		if project == "" && d.Scope == provider.ScopeUser {
			return d, true
		}
		if project != "" && d.Scope == provider.ScopeProject && d.Project == project {
			return d, true
		}
	}
	return provider.SkillDir{}, false
}

// skillLink plans one skill in one tool's skills folder.
func (b *builder) skillLink(l *config.Link, tool, skill string, p provider.Provider) {
	addr := linkAddress(l.Name, tool, "skill."+skill)
	b.desired[addr] = true
	dir, ok := skillDir(p, b.in.Env, l.Project)
	if !ok {
		b.diag("error", addr, "Tool has no skills folder", "%s keeps no skills folder%s, so link %q cannot put skill %q there.", tool, where(l.Project), l.Name, skill)
		return
	}
	path := filepath.Join(dir.Dir, skill)
	if other, taken := b.claimed[path]; taken {
		// Tools that share a folder (codex and agents) get one link there.
		b.shares[addr] = other
		b.plan.Changes = append(b.plan.Changes, Change{Address: addr, Kind: KindLink, Action: Read, Path: path, Reason: "the same folder as " + other})
		return
	}
	b.claimed[path] = addr
	target := storePath(b.in.StoreDir, skill)
	spec := &LinkSpec{Tool: tool, Skill: skill, Path: path, Target: target, Mode: l.Mode}
	rec := b.linkRecord(addr)
	before := observe.Place(b.in.Reader, path)
	c := Change{Address: addr, Kind: KindLink, Path: path, Link: spec, Before: &before}
	if before.Kind == observe.Unreadable && b.notAFolder(dir.Dir) {
		// --replace clears the link's own place, not the tool's skills
		// folder: it cannot help here, so it is not offered.
		c.Action, c.Reason = Conflict, fmt.Sprintf("%s is a file, not a folder, so no skill can be linked into it; move it away (mv %s %s.old), then apply again",
			dir.Dir, ShellQuote(dir.Dir), ShellQuote(dir.Dir))
		b.add(c)
		return
	}
	if l.Mode == config.ModeCopy {
		spec.Hash = b.declaredHash(skill)
	}
	subject := linkSubject{path: path, mode: l.Mode, seen: before, target: target, hash: spec.Hash, rec: rec}
	if l.Mode != config.ModeCopy && rec == nil && before.Kind == observe.Dir && before.Hash == b.declaredHash(skill) {
		subject.there = "a real directory with the same content as the declared skill is at " + path + " (adopt may have copied it from there)"
	}
	want, intent := target, state.Intent{Address: addr, Path: path, Target: target}
	if l.Mode == config.ModeCopy {
		want, intent = spec.Hash, state.Intent{Address: addr, Path: path, Hash: spec.Hash}
	}
	b.decided(&c, own.Decide(own.Case{
		Address: addr, Subject: subject, Want: want, Record: subject.record(),
		Replace: b.in.Replace[addr], Import: b.in.Import[addr], Ignored: b.ignored(addr),
		Intended:   b.st.Intended(intent),
		MovesAside: true, Commands: b.in.Commands,
	}))
	b.add(c)
}

// declaredHash is the hash the central copy of skill will have after apply.
func (b *builder) declaredHash(skill string) string {
	for _, c := range b.plan.Changes {
		if c.Skill != nil && c.Skill.Name == skill {
			return c.Skill.Hash
		}
	}
	if rec, ok := b.st.Skills[skill]; ok {
		return rec.Hash
	}
	if s := b.cfg.Skill(skill); s != nil && s.Source != "" {
		h, _ := b.in.Hashes.Hash(s.Source)
		return h
	}
	return ""
}

func (b *builder) linkRecord(addr string) *state.Link { return b.records.Link(addr) }

// notAFolder reports whether dir is there but is not a folder (nor a link
// to one).
func (b *builder) notAFolder(dir string) bool {
	info, err := b.in.Reader.Stat(dir)
	return err == nil && !info.IsDir()
}

// describe says what occupies a place.
func describe(o observe.Observation, path string) string {
	switch o.Kind {
	case observe.Symlink:
		return "a link to " + o.Target + " is at " + path
	case observe.Dir:
		return "a real directory is at " + path
	case observe.File:
		return "a file is at " + path
	}
	return o.String() + " is at " + path
}
