package plan

import (
	"context"
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitskill"
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
	sha, err := gitskill.RemoteSHA(ctx, s.Git, s.Ref, auth)
	if err != nil {
		b.diag("error", "skill."+s.Name, "Cannot reach "+s.Git, "%s", b.masker.Text(err.Error()))
		return
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
		URL: s.Git, Ref: s.Ref, Path: s.Path, Include: s.Include, Auth: auth, MaxSize: s.MaxSize, Dir: tmp, Progress: b.in.Progress,
	})
	if err != nil {
		b.diag("error", "skill."+s.Name, "Cannot fetch "+s.Git, "%s", b.masker.Text(err.Error()))
		return
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
			Git: &GitSource{URL: s.Git, Ref: s.Ref, Path: s.Path, SHA: f.SHA, Auth: s.Auth, MaxSize: s.MaxSize}}
		c := b.skillChange(addr, spec, scratch, k.Dir)
		rec, known := b.st.Skills[k.Name]
		switch {
		case c.Action == Update && known && rec.OriginSHA != "" && rec.OriginSHA != f.SHA:
			c.Reason = fmt.Sprintf("%s moved from %s to %s", refName(s.Ref), short(rec.OriginSHA), short(f.SHA))
		case c.Action == NoOp && known && rec.OriginSHA != f.SHA:
			c.Action, c.Reason = Update, fmt.Sprintf("%s moved from %s to %s; the skill's files did not change", refName(s.Ref), short(rec.OriginSHA), short(f.SHA))
		case c.Action == Create:
			c.Reason = fmt.Sprintf("from %s at %s", s.Git, short(f.SHA))
		}
		b.add(c)
	}
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
