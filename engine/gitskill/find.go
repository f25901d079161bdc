package gitskill

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/chronicle-dev/chronicle/engine/skills"
)

// MaxDepth is how many folder levels below the skill path Fetch looks for
// SKILL.md files.
const MaxDepth = 5

// A candidate is a folder of the repository holding a SKILL.md.
type candidate struct {
	name string // the folder's name: the skill's name
	path string // slash-separated, from the repository root
	tree *object.Tree
}

// findSkills returns the skill folders at most MaxDepth levels below base
// in root. The search does not descend into a skill: its subfolders are its
// content. defaultName names a skill at the repository root.
func findSkills(root *object.Tree, base, defaultName string) ([]candidate, error) {
	tree := root
	if base != "" {
		var err error
		if tree, err = root.Tree(base); err != nil {
			if errors.Is(err, object.ErrDirectoryNotFound) {
				return nil, fmt.Errorf("path %q is not a folder of the repository", base)
			}
			return nil, fmt.Errorf("path %q: %w", base, err)
		}
	}
	var out []candidate
	var walk func(t *object.Tree, p string, depth int) error
	walk = func(t *object.Tree, p string, depth int) error {
		if _, err := t.FindEntry(skills.ManifestName); err == nil {
			name := path.Base(p)
			if p == "" {
				name = defaultName
			}
			out = append(out, candidate{name: name, path: p, tree: t})
			return nil
		}
		if depth == MaxDepth {
			return nil
		}
		for _, e := range t.Entries {
			// A folder whose name could traverse paths is never taken,
			// so the search passes it by; checkSkill refuses one inside
			// a skill.
			if e.Mode != filemode.Dir || checkEntryName(e.Name) != nil {
				continue
			}
			sub, err := t.Tree(e.Name)
			if err != nil {
				return fmt.Errorf("folder %q: %w", path.Join(p, e.Name), err)
			}
			if err := walk(sub, path.Join(p, e.Name), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(tree, base, 0)
}

// checkBase returns an error unless p is a relative, clean, slash-separated
// path inside the repository ("" is the root).
func checkBase(p string) error {
	if p == "" {
		return nil
	}
	if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") {
		return fmt.Errorf("path %q must be a clean relative folder inside the repository, like \"skills/pdf\"", p)
	}
	return nil
}

// repoName is the last element of a repository URL without ".git": the
// name of a skill at the repository root.
func repoName(url string) string {
	return strings.TrimSuffix(path.Base(strings.TrimRight(url, "/")), ".git")
}
