package backup

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/safefile"
)

// Keep is how many timestamped sets are kept.
const Keep = 5

// OriginalID names the set that keeps each file's first backup forever.
const OriginalID = "original"

const manifestName = "manifest.json"

// A File is one backed-up file of a set.
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

// A Set is one backup: the files one operation was about to change.
type Set struct {
	ID        string    `json:"id"`
	Created   time.Time `json:"created"`
	Operation string    `json:"operation"`
	Files     []File    `json:"files"`

	dir  string
	root string
}

// Dir returns the backups folder under chronicle's home.
func Dir(chronicleHome string) string { return filepath.Join(chronicleHome, "backups") }

// Begin starts a new set for operation ("adopt", "apply", "restore").
// Nothing is written until the first Add.
func Begin(chronicleHome, operation string, now time.Time) *Set {
	root := Dir(chronicleHome)
	id := now.UTC().Format("20060102T150405Z")
	for i := 2; ; i++ {
		if _, err := os.Lstat(filepath.Join(root, id)); errors.Is(err, fs.ErrNotExist) {
			break
		}
		id = now.UTC().Format("20060102T150405Z") + fmt.Sprintf("-%d", i)
	}
	return &Set{ID: id, Created: now.UTC(), Operation: operation, root: root, dir: filepath.Join(root, id)}
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
	f, data, err := read(path)
	if err != nil {
		return err
	}
	if err := s.store(f, data); err != nil {
		return err
	}
	orig, err := Load(s.root, OriginalID)
	if errors.Is(err, fs.ErrNotExist) {
		orig, err = &Set{ID: OriginalID, Created: s.Created, Operation: "first backup of each file"}, nil
		orig.root, orig.dir = s.root, filepath.Join(s.root, OriginalID)
	}
	if err != nil {
		return err
	}
	if !orig.Has(path) && !f.Absent {
		if err := orig.store(f, data); err != nil {
			return err
		}
	}
	return s.prune()
}

func read(path string) (File, []byte, error) {
	f := File{Path: path}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		f.Absent = true
		return f, nil, nil
	}
	if err != nil {
		return f, nil, fmt.Errorf("backing up %s: %w", path, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return f, nil, fmt.Errorf("backing up %s: %w", path, err)
	}
	sum := sha256.Sum256(data)
	f.SHA256 = hex.EncodeToString(sum[:])
	f.Mode = info.Mode().Perm()
	f.Stored = filepath.Join("files", strings.TrimPrefix(filepath.ToSlash(path), "/"))
	return f, data, nil
}

func (s *Set) store(f File, data []byte) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("backup set %s: %w", s.dir, err)
	}
	os.Chmod(s.root, 0o700)
	if !f.Absent {
		dst := filepath.Join(s.dir, f.Stored)
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return fmt.Errorf("backup set %s: %w", s.dir, err)
		}
		if err := safefile.WriteFile(dst, data, 0o600); err != nil {
			return fmt.Errorf("backup set %s: %w", s.dir, err)
		}
	}
	s.Files = append(s.Files, f)
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteFile(filepath.Join(s.dir, manifestName), append(b, '\n'), 0o600)
}

// prune removes the oldest timestamped sets beyond Keep.
func (s *Set) prune() error {
	sets, err := List(filepath.Dir(s.root))
	if err != nil {
		return err
	}
	var stamped []*Set
	for _, set := range sets {
		if set.ID != OriginalID {
			stamped = append(stamped, set)
		}
	}
	for i := 0; i < len(stamped)-Keep; i++ {
		if err := os.RemoveAll(stamped[i].dir); err != nil {
			return fmt.Errorf("pruning backup %s: %w", stamped[i].ID, err)
		}
	}
	return nil
}

// Load reads one set from a backups folder.
func Load(root, id string) (*Set, error) {
	if id == "" || !filepath.IsLocal(id) || strings.ContainsAny(id, `/\`) {
		return nil, fmt.Errorf("%q is not a backup id", id)
	}
	dir := filepath.Join(root, id)
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, err
	}
	var s Set
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, manifestName), err)
	}
	s.root, s.dir = root, dir
	return &s, nil
}

// List returns every set under chronicle's home, oldest first, with the
// original set first of all.
func List(chronicleHome string) ([]*Set, error) {
	root := Dir(chronicleHome)
	entries, err := os.ReadDir(root)
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
		s, err := Load(root, e.Name())
		if err != nil {
			continue // a set being written, or not chronicle's: leave it alone
		}
		sets = append(sets, s)
	}
	sort.Slice(sets, func(i, j int) bool {
		if (sets[i].ID == OriginalID) != (sets[j].ID == OriginalID) {
			return sets[i].ID == OriginalID
		}
		return sets[i].ID < sets[j].ID
	})
	return sets, nil
}

// Move moves whatever is at path — a real directory, a file or a foreign
// link — into the set, out of chronicle's way. It is how apply --replace
// clears a place without destroying what was there. The move is a rename
// when the set is on the same filesystem, else a copy and a removal.
func (s *Set) Move(path string) error {
	path = filepath.Clean(path)
	if _, err := os.Lstat(path); err != nil {
		return fmt.Errorf("backing up %s: %w", path, err)
	}
	f := File{Path: path, Moved: true, Stored: filepath.Join("moved", strings.TrimPrefix(filepath.ToSlash(path), "/"))}
	dst := filepath.Join(s.dir, f.Stored)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("backup set %s: %w", s.dir, err)
	}
	os.Chmod(s.root, 0o700)
	if err := os.Rename(path, dst); err != nil {
		return fmt.Errorf("moving %s into backup set %s: %w", path, s.ID, err)
	}
	s.Files = append(s.Files, f)
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.WriteFile(filepath.Join(s.dir, manifestName), append(b, '\n'), 0o600); err != nil {
		return err
	}
	return s.prune()
}
