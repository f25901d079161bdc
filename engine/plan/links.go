package plan

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// links plans every link block: skills into tools' folders, services and
// the hub entry into tools' MCP configs.
func (b *builder) links() {
	for _, l := range b.cfg.Links {
		for _, tool := range l.Tools {
			p, ok := b.in.Tools[tool]
			if !ok {
				b.diag("error", linkAddress(l.Name, tool, "*"), "Unknown tool", "chronicle has no provider for %q.", tool)
				continue
			}
			for _, s := range linkedSkills(b.cfg, l) {
				b.skillLink(l, tool, s, p)
			}
			for _, svc := range l.Services {
				b.serviceEntry(l, tool, svc, p)
			}
			if l.Hub {
				b.hubEntry(l, tool, p)
			}
		}
	}
}

// skillLink plans one skill in one tool's skills folder.
func (b *builder) skillLink(l *config.Link, tool, skill string, p toolProvider) {
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
		b.plan.Changes = append(b.plan.Changes, Change{Address: addr, Kind: KindLink, Action: Read, Path: path, Reason: "the same folder as " + other})
		return
	}
	b.claimed[path] = addr
	target := storePath(b.in.StoreDir, skill)
	spec := &LinkSpec{Tool: tool, Path: path, Target: target, Mode: l.Mode}
	rec := b.linkRecord(addr)
	actual := PathHash(path)
	b.source(path, actual)
	c := Change{Address: addr, Kind: KindLink, Path: path, Link: spec}
	if l.Mode == config.ModeCopy {
		spec.Hash = b.declaredHash(skill)
		c.Action, c.Reason = b.copyAction(addr, path, actual, spec, rec)
	} else {
		c.Action, c.Reason = b.symlinkAction(addr, path, actual, target, rec)
		if c.Action == Conflict && rec == nil && actual == b.declaredHash(skill) {
			// Often the folder adopt copied the skill from.
			c.Reason = "a real directory with the same content as the declared skill is at " + path +
				" (adopt may have copied it from there); chronicle never overwrites it: apply --replace " + addr +
				" moves it into the backup set and links the central copy"
		}
	}
	b.add(c)
}

// symlinkAction decides what to do at a link's place.
func (b *builder) symlinkAction(addr, path, actual, target string, rec *state.Link) (Action, string) {
	replace := b.in.Replace[addr]
	switch {
	case actual == "absent":
		if rec != nil {
			return Create, "the link was removed since chronicle made it; making it again"
		}
		return Create, ""
	case actual == "link:"+target:
		if rec != nil {
			return NoOp, ""
		}
		if b.st.Intended(state.Intent{Address: addr, Path: path, Target: target}) {
			return Update, "made by an interrupted apply; recording it"
		}
		if replace {
			return Update, "--replace takes over a link chronicle did not make"
		}
		return Conflict, "a link to the central copy is there, but chronicle did not make it (same target); apply --replace " + addr + " to take it over"
	}
	what := describe(path)
	if replace {
		return Replace, what + "; --replace moves it into the backup set, then links"
	}
	if rec != nil {
		return Conflict, "drift: " + what + " where chronicle made a link; it is never overwritten (apply --replace " + addr + " to put the link back)"
	}
	return Conflict, what + "; chronicle never overwrites it (apply --replace " + addr + " moves it into the backup set)"
}

// copyAction decides what to do at a tracked copy's place.
func (b *builder) copyAction(addr, path, actual string, spec *LinkSpec, rec *state.Link) (Action, string) {
	replace := b.in.Replace[addr]
	switch {
	case actual == "absent":
		return Create, ""
	case rec != nil && actual != rec.Hash && actual == spec.Hash && b.st.Intended(state.Intent{Address: addr, Path: path}):
		return Update, "written by an interrupted apply; recording it"
	case rec != nil && actual == rec.Hash:
		if rec.Hash == spec.Hash {
			return NoOp, ""
		}
		return Update, "the skill changed; refreshing the copy"
	case rec == nil && actual == spec.Hash:
		if b.st.Intended(state.Intent{Address: addr, Path: path}) {
			return Update, "made by an interrupted apply; recording it"
		}
		if replace {
			return Update, "--replace takes over an identical copy chronicle did not make"
		}
		return Conflict, "an identical copy is there, but chronicle did not make it; apply --replace " + addr + " to take it over"
	}
	what := describe(path)
	if replace {
		return Replace, what + "; --replace moves it into the backup set, then copies"
	}
	if rec != nil {
		return Conflict, "drift: the copy was changed since chronicle made it; it is never overwritten (apply --replace " + addr + ")"
	}
	return Conflict, what + "; chronicle never overwrites it (apply --replace " + addr + " moves it into the backup set)"
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
		h, _ := skills.Hash(s.Source)
		return h
	}
	return ""
}

func (b *builder) linkRecord(addr string) *state.Link {
	for i := range b.st.Links {
		if b.st.Links[i].Address == addr {
			return &b.st.Links[i]
		}
	}
	return nil
}

// describe says what occupies a place.
func describe(path string) string {
	info, err := os.Lstat(path)
	switch {
	case err != nil:
		return "something unreadable is at " + path
	case info.Mode()&os.ModeSymlink != 0:
		t, _ := os.Readlink(path)
		return fmt.Sprintf("a link to %s is at %s", t, path)
	case info.IsDir():
		return "a real directory is at " + path
	}
	return "a file is at " + path
}

func where(project string) string {
	if project == "" {
		return " at user level"
	}
	return " for project " + project
}
