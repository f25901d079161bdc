package gitskill

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitsource"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// FetchOptions says what to fetch and where.
type FetchOptions struct {
	URL string // https:// only
	// Ref is a branch, a tag, a full commit SHA, or empty for the remote's
	// HEAD.
	Ref string
	// Commit, when set, is the full SHA to take (a lock file's entry): it
	// is fetched by SHA at depth 1 and Ref is not looked up. A server that
	// does not serve a commit by SHA gets a full clone, said in Note.
	Commit string
	// Path is the folder under which to look for skills; empty is the
	// repository root.
	Path string
	// Include names the skills to take; empty takes every skill found.
	Include []string
	// Auth is the resolved token, or empty. Keep it in memory only.
	Auth string
	// MaxSize caps each file and the total of the taken skills, in bytes;
	// zero means gitsource.DefaultMaxSize.
	MaxSize int64
	// Dir is the parent folder of the temporary clone ("" is the system's
	// temporary folder).
	Dir string
	// Progress receives go-git's clone progress; nil is quiet.
	Progress io.Writer
	// Scratch is what the temporary clone's folders are made and removed
	// through; nil is fsys.OS. (The git objects and the skills' files are
	// written by go-git and through an os.Root confined to that folder.)
	Scratch fsys.System
}

// Fetched is the outcome of a Fetch: the commit and the checked skills,
// written inside a temporary clone that Cleanup removes.
type Fetched struct {
	// SHA is the commit the skills come from (an annotated tag is peeled).
	SHA    string
	Skills []FetchedSkill
	// Note says how the fetch fell short of the plan ("" when it did not):
	// a locked commit the server would not serve by SHA, cloned whole.
	Note string

	dir string
	sys fsys.System
}

// A FetchedSkill is one skill taken from the repository.
type FetchedSkill struct {
	Name string
	// Dir is the skill's folder inside the temporary clone.
	Dir string
	// Hash is skills.Hash of Dir.
	Hash string
}

// Cleanup removes the temporary clone and the skills in it.
func (f *Fetched) Cleanup() error {
	if f == nil || f.dir == "" {
		return nil
	}
	return f.sys.RemoveAll(f.dir)
}

// Fetch clones o.Ref of o.URL, finds the skills under o.Path, takes those
// o.Include names (or all), checks them as untrusted content and writes
// them out of the git objects into a temporary folder under o.Dir. Errors
// name the repository and, where one is concerned, the skill and the file.
func Fetch(ctx context.Context, o FetchOptions) (*Fetched, error) {
	if err := CheckURL(o.URL); err != nil {
		return nil, err
	}
	base := o.Path
	if base == "." {
		base = ""
	}
	if err := checkBase(base); err != nil {
		return nil, fmt.Errorf("%s: %w", o.URL, err)
	}
	maxSize := o.MaxSize
	if maxSize <= 0 {
		maxSize = gitsource.DefaultMaxSize
	}
	sys := o.Scratch
	if sys == nil {
		sys = fsys.OS{}
	}
	tmp, err := sys.MkdirTemp(o.Dir, "gitskill-")
	if err != nil {
		return nil, fmt.Errorf("%s: making the temporary clone folder: %w", o.URL, err)
	}
	f := &Fetched{dir: tmp, sys: sys}
	if err := f.fetch(ctx, o, base, maxSize); err != nil {
		f.Cleanup()
		return nil, err
	}
	return f, nil
}

func (f *Fetched) fetch(ctx context.Context, o FetchOptions, base string, maxSize int64) error {
	var repo *git.Repository
	var commit *object.Commit
	var err error
	if o.Commit != "" {
		repo, commit, f.Note, err = cloneLocked(ctx, filepath.Join(f.dir, "repo.git"), o.URL, o.Commit, o.Auth, o.Progress)
	} else {
		repo, commit, err = cloneCommit(ctx, filepath.Join(f.dir, "repo.git"), o.URL, o.Ref, o.Auth, o.Progress)
	}
	if err != nil {
		return err
	}
	f.SHA = commit.Hash.String()
	at := o.URL + "@" + f.SHA[:12]
	tree, err := commit.Tree()
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	found, err := findSkills(tree, base, repoName(o.URL))
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	taken, err := selectSkills(found, o.Include, base)
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	var checks []*checked
	var total int64
	for _, c := range taken {
		s, err := checkSkill(c, maxSize)
		if err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		checks = append(checks, s)
		total += s.size
	}
	if total > maxSize {
		return fmt.Errorf("%s: the taken skills hold %d bytes, over max_size (%d bytes): raise max_size or take fewer skills with include", at, total, maxSize)
	}
	for _, s := range checks {
		dir := filepath.Join(f.dir, "tree", filepath.FromSlash(s.path))
		if s.path == "" {
			dir = filepath.Join(f.dir, "tree", s.name)
		}
		if err := s.write(f.sys, repo.Storer, dir); err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		hash, err := skills.Hash(fsys.OS{}, dir)
		if err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		f.Skills = append(f.Skills, FetchedSkill{Name: s.name, Dir: dir, Hash: hash})
	}
	return nil
}

// selectSkills takes the candidates include names, in include's order, or
// all of them; two taken skills cannot share a name.
func selectSkills(found []candidate, include []string, base string) ([]candidate, error) {
	where := "the repository root"
	if base != "" {
		where = fmt.Sprintf("path %q", base)
	}
	byName := map[string]candidate{}
	var names []string
	for _, c := range found {
		if prev, dup := byName[c.name]; dup && (len(include) == 0 || slices.Contains(include, c.name)) {
			return nil, fmt.Errorf("two skill folders are named %q: %q and %q", c.name, prev.path, c.path)
		}
		byName[c.name] = c
		names = append(names, c.name)
	}
	if len(include) == 0 {
		if len(found) == 0 {
			return nil, fmt.Errorf("no SKILL.md found up to %d levels below %s", MaxDepth, where)
		}
		return found, nil
	}
	var taken []candidate
	for i, name := range include {
		if slices.Contains(include[:i], name) {
			continue
		}
		c, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("include names %q, but no skill folder of that name is up to %d levels below %s (found: %v)", name, MaxDepth, where, names)
		}
		taken = append(taken, c)
	}
	return taken, nil
}
