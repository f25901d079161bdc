package skills

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// Statuses of a skill found in a tool's folder (SPEC §5).
const (
	StatusImportable = "importable" // a valid skill chronicle does not manage
	StatusManaged    = "managed"    // a link into the central store, or a copy of a central skill (engine/scan keeps this only for a copy the state tracks)
	StatusDuplicate  = "duplicate"  // valid, named like a central skill, with other content
	StatusBroken     = "broken"     // see Reason
	// StatusSingleFile is a skill in one NAME.md file (Antigravity's, in a
	// folder whose SkillDir.Files is set): listed, never imported or
	// linked, since chronicle keeps skills as folders.
	StatusSingleFile = "single-file"
	// StatusUnread is a folder listed without being read (a plan's
	// glance: see Depth.Read); scan and plan --unmanaged read every one.
	StatusUnread = "unread"
)

// singleFileReason is the reason scan gives a single-file skill.
const singleFileReason = "a skill in one .md file, as Antigravity reads them: chronicle keeps skills as folders, so it lists this one and leaves it"

// A Found is one entry of a tool's skills folder.
type Found struct {
	Tool       string
	SharedWith []string
	Scope      string
	Project    string
	Dir        string // the skills folder
	Name       string // the entry's name in the folder (a single-file skill's without .md)
	Path       string // Dir/Name (Dir/Name.md for a single-file skill)
	// ReadOnly and Note are the folder's (provider.SkillDir): a skill
	// chronicle lists and never links, and whose it is.
	ReadOnly bool
	Note     string
	Link     string // the symlink's target, when the entry is a link
	Status   string
	Reason   string // why the skill is broken, or what else is worth knowing
	// Hash is the tree hash of the skill's content (through a link) when it
	// could be read.
	Hash string
	Meta Frontmatter
}

// A Store is the central skills folder, ~/.chronicle/skills.
type Store struct {
	Dir string
}

// Has reports whether the store holds a skill named name, with its hash
// (through h).
func (s Store) Has(h *Hasher, name string) (hash string, ok bool) {
	dir := filepath.Join(s.Dir, name)
	if info, err := h.Reader().Stat(dir); err != nil || !info.IsDir() {
		return "", false
	}
	hash, err := h.Hash(dir)
	if err != nil {
		return "", false
	}
	return hash, true
}

// Contains reports whether path lies inside the store.
func (s Store) Contains(path string) bool {
	rel, err := filepath.Rel(s.Dir, path)
	return err == nil && rel != "." && filepath.IsLocal(rel)
}

// ScanDir lists and classifies the entries of one skills folder, read and
// hashed through h. A folder that does not exist holds nothing; hidden
// entries are skipped.
func ScanDir(h *Hasher, d provider.SkillDir, store Store) ([]Found, error) {
	return ScanDirTo(h, d, store, Depth{})
}

// A Depth says how much of a skills folder's entries ScanDirTo reads; the
// zero Depth reads everything, as ScanDir does.
type Depth struct {
	// ManagedUnhashed leaves the Hash of links into the store empty: for a
	// caller that passes over managed skills (a plan's list of what it
	// does not manage), which would otherwise hash the store once per link.
	ManagedUnhashed bool
	// Read, when not nil, says which folders are read (by their name): any
	// other folder is listed with StatusUnread, its SKILL.md not parsed nor
	// its tree hashed. For a list that shows a few items and counts the
	// rest (a plan's); Classify reads one later.
	Read func(name string) bool
}

// ScanDirTo is ScanDir reading the entries only as deep as depth says.
func ScanDirTo(h *Hasher, d provider.SkillDir, store Store, depth Depth) ([]Found, error) {
	entries, err := h.Reader().ReadDir(d.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Dir, err)
	}
	var out []Found
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		f := Found{
			Tool: d.Tool, SharedWith: d.SharedWith, Scope: d.Scope, Project: d.Project,
			Dir: d.Dir, Name: e.Name(), Path: filepath.Join(d.Dir, e.Name()),
			ReadOnly: d.ReadOnly, Note: d.Note,
		}
		stem, single := strings.CutSuffix(e.Name(), ".md")
		switch {
		case single && d.Files && e.Type().IsRegular():
			f.Name = stem
			singleFile(h, &f)
		case depth.Read != nil && e.IsDir() && !depth.Read(f.Name):
			f.Status = StatusUnread
		default:
			classify(h, &f, store, !depth.ManagedUnhashed)
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Classify reads the entry f names (a Found of ScanDirTo, StatusUnread)
// and sets its status, reason, hash and frontmatter as ScanDir would.
func Classify(h *Hasher, f *Found, store Store) {
	f.Status, f.Reason, f.Hash, f.Meta = "", "", "", Frontmatter{}
	classify(h, f, store, true)
}

func classify(h *Hasher, f *Found, store Store, hashManaged bool) {
	r := h.Reader()
	info, err := r.Lstat(f.Path)
	if err != nil {
		f.Status, f.Reason = StatusBroken, err.Error()
		return
	}
	target := f.Path
	if info.Mode()&fs.ModeSymlink != 0 {
		f.Link, err = r.Readlink(f.Path)
		if err != nil {
			f.Status, f.Reason = StatusBroken, err.Error()
			return
		}
		// Resolve from the link's target: the link itself was just read.
		next := f.Link
		if !filepath.IsAbs(next) {
			next = filepath.Join(filepath.Dir(f.Path), next)
		}
		resolved, err := Resolve(r, filepath.Clean(next))
		if err != nil {
			f.Status, f.Reason = StatusBroken, "dangling link to "+f.Link
			return
		}
		target = resolved
		if store.Contains(resolved) {
			f.Status = StatusManaged
			if hashManaged {
				f.Hash, _ = h.Hash(resolved)
			}
			return
		}
		if info, err = r.Stat(resolved); err != nil {
			f.Status, f.Reason = StatusBroken, err.Error()
			return
		}
	}
	if !info.IsDir() {
		f.Status, f.Reason = StatusBroken, "not a folder"
		return
	}
	meta, err := ReadManifest(r, target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.Status, f.Reason = StatusBroken, "no SKILL.md"
		return
	case err != nil:
		f.Status, f.Reason = StatusBroken, "bad frontmatter: "+err.Error()
		return
	}
	f.Meta = meta
	if meta.Name != f.Name {
		f.Status, f.Reason = StatusBroken, fmt.Sprintf("frontmatter name %q ≠ folder name %q", meta.Name, f.Name)
		return
	}
	if !names.Valid(f.Name) {
		f.Status, f.Reason = StatusBroken, fmt.Sprintf("%q is not a valid skill name: %s", f.Name, names.Rule)
		return
	}
	f.Hash, err = h.Hash(target)
	if err != nil {
		f.Status, f.Reason = StatusBroken, err.Error()
		return
	}
	f.Status = StatusImportable
	if central, ok := store.Has(h, f.Name); ok {
		if central == f.Hash {
			f.Status, f.Reason = StatusManaged, "a copy identical to the central skill"
		} else {
			f.Status, f.Reason = StatusDuplicate, "differs from the central skill "+f.Name
		}
		return
	}
	// Importable means adopt can copy it.
	if err := h.Copyable(target); err != nil {
		f.Status, f.Reason = StatusBroken, "not importable: "+err.Error()
	}
}

// singleFile classifies a NAME.md file of a folder that takes single-file
// skills: one with a valid frontmatter is a single-file skill.
func singleFile(h *Hasher, f *Found) {
	src, err := h.Reader().ReadFile(f.Path)
	if err != nil {
		f.Status, f.Reason = StatusBroken, err.Error()
		return
	}
	if f.Meta, err = ParseFrontmatter(src); err != nil {
		f.Status, f.Reason = StatusBroken, "bad frontmatter: "+err.Error()
		return
	}
	f.Status, f.Reason = StatusSingleFile, singleFileReason
}
