package gitskill

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// maxLinkTarget is the longest symlink target accepted.
const maxLinkTarget = 4096

// An entry is one thing a checked skill will write: a folder, a file or a
// symlink, by its slash path inside the skill.
type entry struct {
	rel  string
	kind entryKind
	hash plumbing.Hash // a file's blob
	size int64         // a file's size
	link string        // a symlink's target
}

type entryKind byte

const (
	kindDir  entryKind = 'd'
	kindFile entryKind = 'f'
	kindExec entryKind = 'x'
	kindLink entryKind = 'l'
)

// A checked skill is a candidate whose name, manifest and every entry have
// passed the checks for untrusted content, in parent-before-child order.
type checked struct {
	candidate
	entries []entry
	size    int64 // total bytes of its files
}

// checkSkill checks a candidate before anything of it is written: its
// folder name is a valid name equal to its SKILL.md's name; every entry is
// a folder, a regular file no larger than maxSize, or a symlink whose
// target stays inside the skill folder; no name can traverse paths.
func checkSkill(c candidate, maxSize int64) (*checked, error) {
	if !names.Valid(c.name) {
		return nil, fmt.Errorf("skill folder %q: %q is not a valid skill name: %s", c.path, c.name, names.Rule)
	}
	if err := checkManifest(c); err != nil {
		return nil, fmt.Errorf("skill folder %q: %w", c.path, err)
	}
	s := &checked{candidate: c}
	if err := s.walk(c.tree, "", maxSize); err != nil {
		return nil, fmt.Errorf("skill %q (folder %q): %w", c.name, c.path, err)
	}
	return s, nil
}

// checkManifest reads the candidate's SKILL.md, which must be a regular
// file whose frontmatter names the folder.
func checkManifest(c candidate) error {
	e, err := c.tree.FindEntry(skills.ManifestName)
	if err != nil {
		return err
	}
	if !isFile(e.Mode) {
		return fmt.Errorf("%s is not a regular file (mode %s)", skills.ManifestName, e.Mode)
	}
	f, err := c.tree.TreeEntryFile(e)
	if err != nil {
		return fmt.Errorf("%s: %w", skills.ManifestName, err)
	}
	if f.Size > 1<<20 {
		return fmt.Errorf("%s is %d bytes; a manifest is at most 1 MiB", skills.ManifestName, f.Size)
	}
	text, err := f.Contents()
	if err != nil {
		return fmt.Errorf("%s: %w", skills.ManifestName, err)
	}
	fm, err := skills.ParseFrontmatter([]byte(text))
	if err != nil {
		return fmt.Errorf("%s: %w", skills.ManifestName, err)
	}
	if fm.Name != c.name {
		return fmt.Errorf("%s names the skill %q but its folder is %q: the two must be equal", skills.ManifestName, fm.Name, c.name)
	}
	return nil
}

// walk appends the entries of tree t, found at rel inside the skill.
func (s *checked) walk(t *object.Tree, rel string, maxSize int64) error {
	for _, te := range t.Entries {
		p := path.Join(rel, te.Name)
		if err := checkEntryName(te.Name); err != nil {
			return fmt.Errorf("file %q: %w", p, err)
		}
		switch {
		case te.Mode == filemode.Dir:
			sub, err := t.Tree(te.Name)
			if err != nil {
				return fmt.Errorf("folder %q: %w", p, err)
			}
			s.entries = append(s.entries, entry{rel: p, kind: kindDir})
			if err := s.walk(sub, p, maxSize); err != nil {
				return err
			}
		case te.Mode == filemode.Symlink:
			target, err := linkTarget(t, te)
			if err != nil {
				return fmt.Errorf("symlink %q: %w", p, err)
			}
			if err := checkLinkTarget(p, target); err != nil {
				return fmt.Errorf("symlink %q: %w", p, err)
			}
			s.entries = append(s.entries, entry{rel: p, kind: kindLink, link: target})
		case isFile(te.Mode):
			f, err := t.TreeEntryFile(&te)
			if err != nil {
				return fmt.Errorf("file %q: %w", p, err)
			}
			if f.Size > maxSize {
				return fmt.Errorf("file %q is %d bytes, over max_size (%d bytes)", p, f.Size, maxSize)
			}
			kind := kindFile
			if te.Mode == filemode.Executable {
				kind = kindExec
			}
			s.entries = append(s.entries, entry{rel: p, kind: kind, hash: te.Hash, size: f.Size})
			s.size += f.Size
		case te.Mode == filemode.Submodule:
			return fmt.Errorf("%q is a git submodule, which a skill cannot contain", p)
		default:
			return fmt.Errorf("%q is not a regular file, folder or symlink (mode %s)", p, te.Mode)
		}
	}
	return nil
}

// checkEntryName refuses names that could reach outside their folder or
// into git's own: "", ".", "..", ".git" in any case, and names with a
// slash, a backslash or a NUL.
func checkEntryName(name string) error {
	switch {
	case name == "" || name == "." || name == "..":
		return fmt.Errorf("the name %q traverses paths", name)
	case strings.ContainsAny(name, "/\\\x00"):
		return fmt.Errorf("the name contains a slash, backslash or NUL")
	case strings.EqualFold(name, ".git"):
		return fmt.Errorf("a skill cannot contain a .git entry")
	}
	return nil
}

// linkTarget reads a symlink entry's target.
func linkTarget(t *object.Tree, te object.TreeEntry) (string, error) {
	f, err := t.TreeEntryFile(&te)
	if err != nil {
		return "", err
	}
	if f.Size > maxLinkTarget {
		return "", fmt.Errorf("the target is %d bytes long", f.Size)
	}
	r, err := f.Reader()
	if err != nil {
		return "", err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	return string(b), err
}

// checkLinkTarget refuses a symlink at rel (inside the skill) whose target
// is absolute or climbs out of the skill folder. Targets that resolve
// through other symlinks are checked again on disk after writing.
func checkLinkTarget(rel, target string) error {
	switch {
	case target == "" || strings.ContainsRune(target, 0):
		return fmt.Errorf("the target %q is empty or contains NUL", target)
	case strings.HasPrefix(target, "/") || strings.HasPrefix(target, `\`) || len(target) > 1 && target[1] == ':':
		return fmt.Errorf("it points at the absolute path %q, outside the skill folder", target)
	}
	if joined := path.Join(path.Dir(rel), target); joined == ".." || strings.HasPrefix(joined, "../") {
		return fmt.Errorf("it points at %q, outside the skill folder", target)
	}
	return nil
}

// isFile reports whether a tree entry's mode is a plain or executable file.
func isFile(m filemode.FileMode) bool {
	return m.IsRegular() || m == filemode.Executable
}
