package plan

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/cores"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// skills plans the central store: each declared local skill is imported
// into ~/.chronicle/skills/<name> and kept equal to its source. A central copy
// edited in place since the last apply is drift, never overwritten silently.
func (b *builder) skills() {
	// Every core hashes, through the cache: the sources, and the central
	// copies (what skillChange observes as Before).
	var trees []string
	for _, s := range b.cfg.Skills {
		if !s.IsGit() {
			trees = append(trees, s.Source, storePath(b.in.StoreDir, s.Name))
		}
	}
	b.observed.HashAll(trees)
	problems := make([]string, len(b.cfg.Skills))
	cores.Each(len(b.cfg.Skills), func(i int) {
		if s := b.cfg.Skills[i]; !s.IsGit() && !b.importedAsIs(s) {
			problems[i] = checkSource(b.in.Reader, b.in.Hashes, s.Name, s.Source)
		}
	})
	for i, s := range b.cfg.Skills {
		addr := "skill." + s.Name
		if s.IsGit() {
			b.gitSkill(s)
			continue
		}
		spec := &SkillSpec{Name: s.Name, Source: s.Source, Store: storePath(b.in.StoreDir, s.Name)}
		if problem := problems[i]; problem != "" {
			b.diag("error", addr, "Cannot import skill "+s.Name, "%s", problem)
			b.desired[addr] = true
			continue
		}
		hs, err := b.in.Hashes.Hash(s.Source)
		if err != nil {
			b.diag("error", addr, "Cannot read skill "+s.Name, "%s", err)
			b.desired[addr] = true
			continue
		}
		spec.Hash = hs
		b.add(b.skillChange(addr, spec, b.in.Reader, s.Source))
	}
}

// importedAsIs reports whether the source of s is, byte for byte, what the
// last apply imported as s from the same folder (the tree hash the state
// records for it): it passed checkSource then, and the check depends on
// nothing but the name and the tree, so it is not read and parsed again.
func (b *builder) importedAsIs(s *config.Skill) bool {
	rec, ok := b.st.Skills[s.Name]
	if !ok || rec.Source != s.Source || rec.Hash == "" {
		return false
	}
	hs, err := b.in.Hashes.Hash(s.Source)
	return err == nil && hs == rec.Hash
}

// skillChange compares the central copy of a skill with the declared one
// (hash spec.Hash, content in the folder source, read through src) and the
// state.
func (b *builder) skillChange(addr string, spec *SkillSpec, src fsys.Reader, source string) Change {
	hs := spec.Hash
	name := spec.Name
	before := observe.PlaceWith(b.observed, spec.Store)
	central := placeHash(before)
	c := Change{Address: addr, Kind: KindSkill, Path: spec.Store, Skill: spec, Before: &before}
	rec, known := b.st.Skills[name]
	switch {
	case before.Kind == observe.Absent:
		c.Action = Create
		if known {
			c.Reason = "the central copy is missing; importing it again"
		}
	case before.Kind != observe.Dir:
		c.Action, c.Reason = Conflict, "the store holds "+before.String()+" at "+spec.Store+" instead of a skill folder; move it away"
	case central == hs && central != rec.Hash && b.st.Intended(state.Intent{Address: addr, Path: spec.Store, Hash: hs}):
		c.Action, c.Reason = Update, "written by an interrupted apply; recording it"
	case known && central != rec.Hash:
		b.skillDiff(&c, addr, spec.Store, src, source)
		if b.in.Replace[addr] {
			c.Action, c.Reason = Replace, "edited in place since the last apply; --replace takes the declared version after a snapshot"
		} else {
			c.Action, c.Reason = Conflict, "the central copy was edited in place since the last apply; to keep the edit, copy it back to "+source+"; to drop it, "+b.in.Commands.Replace(addr)
		}
	case known && hs != rec.Hash:
		c.Action, c.Reason = Update, "the source changed; the central copy is snapshotted first"
		b.skillDiff(&c, addr, spec.Store, src, source)
	case known:
		// Up to date.
	case central == hs:
		c.Action, c.Reason = Update, "already in the store with the declared content; recording it"
	default:
		b.skillDiff(&c, addr, spec.Store, src, source)
		if b.in.Replace[addr] {
			c.Action, c.Reason = Replace, "--replace takes the declared version after a snapshot"
		} else {
			c.Action, c.Reason = Conflict, "the store holds another version that the state does not record; "+b.in.Commands.Replace(addr)+" takes the declared one"
		}
	}
	return c
}

// placeHash is the tree hash of a folder observation, "absent" for nothing,
// and the observation's text otherwise (never equal to a tree hash).
func placeHash(o observe.Observation) string {
	switch o.Kind {
	case observe.Absent:
		return "absent"
	case observe.Dir:
		return o.Hash
	}
	return o.String()
}

// checkSource returns why a skill folder cannot be imported, or "".
func checkSource(r fsys.Reader, h *skills.Hasher, name, dir string) string {
	info, err := r.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "the folder " + dir + " does not exist"
	case err != nil:
		return err.Error()
	case !info.IsDir():
		return dir + " is not a folder"
	}
	fm, err := skills.ReadManifest(r, dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return dir + " has no SKILL.md"
	case err != nil:
		return filepath.Join(dir, skills.ManifestName) + ": " + err.Error()
	case fm.Name != name:
		return "the frontmatter name of " + filepath.Join(dir, skills.ManifestName) + " is \"" + fm.Name + "\", not \"" + name + "\""
	}
	// What Copy would refuse is learnt from the walk that hashed the tree
	// (HashAll above).
	if err := h.Copyable(dir); err != nil {
		return dir + ": " + err.Error() + "; chronicle copies a skill only whole and self-contained"
	}
	return ""
}
