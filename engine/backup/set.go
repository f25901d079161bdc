package backup

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// Keep is how many timestamped sets without moved items are kept.
const Keep = 5

// OriginalID names the set that keeps each file's first backup forever.
const OriginalID = "original"

const manifestName = "manifest.json"

// idLayout is a set id: its creation time in UTC to the nanosecond, so ids
// sort by time and two sets made within one second still differ.
const idLayout = "20060102T150405.000000000Z"

// A File is one item of a set.
type File struct {
	Path   string      `json:"path"`             // the original absolute path
	Stored string      `json:"stored,omitempty"` // relative to the set folder
	SHA256 string      `json:"sha256,omitempty"`
	Mode   fs.FileMode `json:"mode,omitempty"`
	// Absent records that the file did not exist, so a restore removes it.
	Absent bool `json:"absent,omitempty"`
	// Moved records a directory, file or link moved into the set whole
	// (by apply --replace), rather than copied.
	Moved bool `json:"moved,omitempty"`
}

// A Set is one backup: what one operation was about to change or moved away.
type Set struct {
	ID        string    `json:"id"`
	Created   time.Time `json:"created"`
	Operation string    `json:"operation"`
	// Kept says the set holds something moved out of the way: it stays
	// until pruned by name or age, whatever the rotation.
	Kept  bool   `json:"kept,omitempty"`
	Files []File `json:"files"`

	sys  fsys.System
	dir  string
	root string
}

// Dir returns the backups folder under chronicle's home.
func Dir(chronicleHome string) string { return filepath.Join(chronicleHome, "backups") }

// Begin starts a new set for operation ("adopt", "apply", "restore …").
// Nothing is written until the first Add or Move.
func Begin(sys fsys.System, chronicleHome, operation string, now time.Time) *Set {
	root := Dir(chronicleHome)
	return &Set{Created: now.UTC(), Operation: operation, sys: sys, root: root}
}

// create makes the set's folder on first use, under an id no other set has.
func (s *Set) create() error {
	if s.dir != "" {
		return nil
	}
	if err := s.sys.MkdirAll(s.root, 0o700); err != nil {
		return fmt.Errorf("backups %s: %w", s.root, err)
	}
	_ = s.sys.Chmod(s.root, 0o700)
	base := s.Created.Format(idLayout)
	// Never reuse an id, even one whose set was pruned since: start after
	// the highest one taken at this instant.
	next := 1
	if entries, err := s.sys.ReadDir(s.root); err == nil {
		for _, e := range entries {
			if e.Name() == base || strings.HasPrefix(e.Name(), base+"-") {
				next = max(next, collision(e.Name())+1)
			}
		}
	}
	var id string
	for ; ; next++ {
		id = base
		if next > 1 {
			id = fmt.Sprintf("%s-%d", base, next)
		}
		err := s.sys.Mkdir(filepath.Join(s.root, id), 0o700)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("backup set %s: %w", id, err)
		}
	}
	s.ID, s.dir = id, filepath.Join(s.root, id)
	return nil
}

// Has reports whether the set already holds path.
func (s *Set) Has(path string) bool {
	for _, f := range s.Files {
		if f.Path == path {
			return true
		}
	}
	return false
}

// Add copies the file at path into the set (once per set), and into the
// original set when no backup of it was ever taken. A missing file is
// recorded as absent.
func (s *Set) Add(path string) error {
	path = filepath.Clean(path)
	if s.Has(path) {
		return nil
	}
	data, err := s.sys.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s.AddBytes(path, nil, 0, false)
	}
	if err != nil {
		return fmt.Errorf("backing up %s: %w", path, err)
	}
	info, err := s.sys.Stat(path)
	if err != nil {
		return fmt.Errorf("backing up %s: %w", path, err)
	}
	return s.AddBytes(path, data, info.Mode().Perm(), true)
}

// AddBytes backs up path as holding data (mode perm), or as absent when
// !existed: the bytes a caller read and is about to replace, so the backup
// is exactly what the change started from.
func (s *Set) AddBytes(path string, data []byte, perm fs.FileMode, existed bool) error {
	path = filepath.Clean(path)
	if s.Has(path) {
		return nil
	}
	f := File{Path: path, Absent: !existed}
	if existed {
		sum := sha256.Sum256(data)
		f.SHA256 = hex.EncodeToString(sum[:])
		f.Mode = perm
		f.Stored = filepath.Join("files", strings.TrimPrefix(filepath.ToSlash(path), "/"))
	}
	if err := s.create(); err != nil {
		return err
	}
	if err := s.store(f, data); err != nil {
		return err
	}
	if existed {
		if err := s.keepOriginal(f, data); err != nil {
			return err
		}
	}
	return s.prune()
}

// keepOriginal stores f in the original set unless it holds the file.
func (s *Set) keepOriginal(f File, data []byte) error {
	orig, err := Load(s.sys, s.root, OriginalID)
	if errors.Is(err, fs.ErrNotExist) {
		orig = &Set{ID: OriginalID, Created: s.Created, Operation: "first backup of each file", sys: s.sys, root: s.root, dir: filepath.Join(s.root, OriginalID)}
		if err := s.sys.MkdirAll(orig.dir, 0o700); err != nil {
			return fmt.Errorf("backup set %s: %w", orig.dir, err)
		}
	} else if err != nil {
		return err
	}
	if orig.Has(f.Path) {
		return nil
	}
	return orig.store(f, data)
}

func (s *Set) store(f File, data []byte) error {
	if !f.Absent {
		dst := filepath.Join(s.dir, f.Stored)
		if err := s.sys.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return fmt.Errorf("backup set %s: %w", s.dir, err)
		}
		if err := s.sys.WriteFile(dst, data, 0o600); err != nil {
			return fmt.Errorf("backup set %s: %w", s.dir, err)
		}
	}
	s.Files = append(s.Files, f)
	return s.writeManifest()
}

func (s *Set) writeManifest() error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return s.sys.WriteFile(filepath.Join(s.dir, manifestName), append(b, '\n'), 0o600)
}

// Move moves whatever is at path — a real directory, a file or a foreign
// link — into the set, out of chronicle's way, and marks the set kept. It
// is how apply --replace clears a place without destroying what was there.
func (s *Set) Move(path string) error {
	path = filepath.Clean(path)
	if _, err := s.sys.Lstat(path); err != nil {
		return fmt.Errorf("backing up %s: %w", path, err)
	}
	if err := s.create(); err != nil {
		return err
	}
	f := File{Path: path, Moved: true, Stored: filepath.Join("moved", strings.TrimPrefix(filepath.ToSlash(path), "/"))}
	dst := filepath.Join(s.dir, f.Stored)
	if err := s.sys.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("backup set %s: %w", s.dir, err)
	}
	if err := s.sys.Rename(path, dst); err != nil {
		return fmt.Errorf("moving %s into backup set %s: %w", path, s.ID, err)
	}
	s.Kept = true
	s.Files = append(s.Files, f)
	return s.writeManifest()
}

// prune removes the oldest timestamped sets beyond Keep that hold nothing
// moved aside. It never removes the set being written, nor original.
func (s *Set) prune() error {
	sets, err := list(s.sys, s.root)
	if err != nil {
		return err
	}
	var rotating []*Set
	for _, set := range sets {
		if set.ID != OriginalID && !set.Kept && set.ID != s.ID {
			rotating = append(rotating, set)
		}
	}
	// The set being written counts among the Keep.
	for i := 0; i < len(rotating)-(Keep-1); i++ {
		if err := s.sys.RemoveAll(rotating[i].dir); err != nil {
			return fmt.Errorf("pruning backup %s: %w", rotating[i].ID, err)
		}
	}
	return nil
}

// Load reads one set from a backups folder.
func Load(sys fsys.System, root, id string) (*Set, error) {
	if id == "" || !filepath.IsLocal(id) || strings.ContainsAny(id, `/\`) {
		return nil, fmt.Errorf("%q is not a backup id", id)
	}
	dir := filepath.Join(root, id)
	b, err := sys.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, err
	}
	var s Set
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, manifestName), err)
	}
	s.sys, s.root, s.dir = sys, root, dir
	return &s, nil
}

// List returns every set under chronicle's home: original first, then
// oldest first.
func List(sys fsys.System, chronicleHome string) ([]*Set, error) {
	return list(sys, Dir(chronicleHome))
}

func list(sys fsys.System, root string) ([]*Set, error) {
	entries, err := sys.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var sets []*Set
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		s, err := Load(sys, root, e.Name())
		if err != nil {
			continue // a set being written, or not chronicle's: leave it alone
		}
		sets = append(sets, s)
	}
	sort.Slice(sets, func(i, j int) bool {
		if (sets[i].ID == OriginalID) != (sets[j].ID == OriginalID) {
			return sets[i].ID == OriginalID
		}
		if !sets[i].Created.Equal(sets[j].Created) {
			return sets[i].Created.Before(sets[j].Created)
		}
		return collision(sets[i].ID) < collision(sets[j].ID)
	})
	return sets, nil
}

// collision returns the number an id got when its time was taken (1 for
// none), so that sets made at one instant sort in the order they were made.
func collision(id string) int {
	_, n, ok := strings.Cut(id, "Z-")
	if !ok {
		return 1
	}
	i, _ := strconv.Atoi(n)
	return i
}
