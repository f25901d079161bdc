package plan

import (
	"context"
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/lockfile"
	"github.com/chronicle-dev/chronicle/engine/observe"
)

// gitSkill plans the skills one git skill block brings. The remote's tip is
// looked up without cloning; the repository is fetched (a shallow clone into
// a temporary folder, removed when planning ends) only when a skill is new
// or the commit moved. With Offline, nothing goes to the network.
func (b *builder) gitSkill(s *config.Skill) {
	names := s.Include
	if len(names) == 0 {
		names = []string{s.Name}
	}
	for _, n := range names {
		b.desired["skill."+n] = true
	}
	locked, ok := b.lockedCommit(s)
	if !ok {
		return
	}
	if b.in.Offline {
		for _, n := range names {
			if _, known := b.st.Skills[n]; !known {
				b.diag("warning", "skill."+n, "Not imported: offline", "skill %q comes from %s; --offline skips every network call, so it is imported by the next plan that is not offline.", n, s.Git)
			}
		}
		return
	}
	ctx := b.in.Context
	if ctx == nil {
		ctx = context.Background()
	}
	auth := ""
	if !s.Auth.IsZero() {
		var err error
		if auth, err = b.in.Resolver.Resolve(s.Auth); err != nil {
			b.diag("error", "skill."+s.Name, "Cannot authenticate to "+s.Git, "%s", err)
			return
		}
		b.masker.Add(auth)
	}
	sha := locked
	if sha == "" {
		var err error
		if sha, err = gitskill.RemoteSHA(ctx, s.Git, s.Ref, auth); err != nil {
			b.diag("error", "skill."+s.Name, "Cannot reach "+s.Git, "%s", b.masker.Text(err.Error()))
			return
		}
	}
	if b.upToDate(names, s.Git, sha) {
		return
	}
	scratch := b.in.Scratch
	if scratch == nil {
		scratch = fsys.OS{}
	}
	tmp, err := scratch.MkdirTemp("", "chronicle-plan-git-")
	if err != nil {
		b.diag("error", "skill."+s.Name, "Cannot fetch "+s.Git, "%s", err)
		return
	}
	b.cleanups = append(b.cleanups, func() { scratch.RemoveAll(tmp) })
	f, err := gitskill.Fetch(ctx, gitskill.FetchOptions{
		URL: s.Git, Ref: s.Ref, Commit: locked, Path: s.Path, Include: s.Include, Auth: auth, MaxSize: s.MaxSize, Dir: tmp, Progress: b.in.Progress, Scratch: scratch,
	})
	if err != nil {
		b.diag("error", "skill."+s.Name, "Cannot fetch "+s.Git, "%s", b.masker.Text(err.Error()))
		return
	}
	if f.Note != "" {
		b.diag("warning", "skill."+s.Name, "Cloned the whole repository", "%s", b.masker.Text(f.Note))
	}
	if len(s.Include) == 0 && (len(f.Skills) != 1 || f.Skills[0].Name != s.Name) {
		var found []string
		for _, k := range f.Skills {
			found = append(found, k.Name)
		}
		b.diag("error", "skill."+s.Name, "Skills of "+s.Git+" do not match the block", "skill %q without include must bring exactly one skill named %q; the repository has %q under %q. Name them with include = [...].", s.Name, s.Name, found, s.Path)
		return
	}
	for _, k := range f.Skills {
		addr := "skill." + k.Name
		spec := &SkillSpec{Name: k.Name, Hash: k.Hash, Store: storePath(b.in.StoreDir, k.Name),
			Git: &GitSource{URL: s.Git, Ref: s.Ref, Path: s.Path, SHA: f.SHA, Auth: s.Auth, MaxSize: s.MaxSize, Locked: locked != ""}}
		c := b.skillChange(addr, spec, scratch, k.Dir)
		rec, known := b.st.Skills[k.Name]
		moved := refName(s.Ref) + " moved"
		at := ""
		if locked != "" {
			moved, at = "the locked commit of "+refName(s.Ref)+" moved", " (locked)"
		}
		switch {
		case c.Action == Update && known && rec.OriginSHA != "" && rec.OriginSHA != f.SHA:
			c.Reason = fmt.Sprintf("%s from %s to %s", moved, short(rec.OriginSHA), short(f.SHA))
		case c.Action == NoOp && known && rec.OriginSHA != f.SHA:
			c.Action, c.Reason = Update, fmt.Sprintf("%s from %s to %s; the skill's files did not change", moved, short(rec.OriginSHA), short(f.SHA))
		case c.Action == Create:
			c.Reason = fmt.Sprintf("from %s at %s%s", s.Git, short(f.SHA), at)
		}
		b.add(c)
	}
}

// lockedCommit returns the commit the lock file holds for the git skill
// block s, or "" when there is no lock file or it has no entry for s (then
// the tip is installed and a warning says to run chronicle lock; plan and
// apply never write the lock file). An entry recorded for another URL or
// ref is an error: ok is false and nothing of s is planned.
func (b *builder) lockedCommit(s *config.Skill) (commit string, ok bool) {
	if b.in.Lock == nil {
		return "", true
	}
	addr := "skill." + s.Name
	e, found := b.in.Lock.Skills[s.Name]
	if !found {
		b.diag("warning", addr, "Not in the lock file", "%s has no entry for %s: it is planned at the current tip of %s, which another machine may not get. Run chronicle lock to lock it, and commit %s.", lockfile.FileName, addr, refName(s.Ref), lockfile.FileName)
		return "", true
	}
	if e.URL != s.Git || e.Ref != s.Ref {
		b.diag("error", addr, "The lock entry does not match the skill block", "%s locks %s to %s (ref %q), but the block now says %s (ref %q). Run chronicle lock --upgrade %s to lock what the block says, and commit %s.", lockfile.FileName, addr, e.URL, e.Ref, s.Git, s.Ref, addr, lockfile.FileName)
		return "", false
	}
	return e.Commit, true
}

// upToDate reports whether every skill of a block was imported from sha and
// is unchanged in the store, so nothing needs fetching.
func (b *builder) upToDate(names []string, repo, sha string) bool {
	for _, n := range names {
		rec, ok := b.st.Skills[n]
		if !ok || rec.OriginRepo != repo || rec.OriginSHA != sha || placeHash(observe.Place(b.in.Reader, storePath(b.in.StoreDir, n))) != rec.Hash {
			return false
		}
	}
	return true
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func refName(ref string) string {
	if ref == "" {
		return "the default branch"
	}
	return ref
}
