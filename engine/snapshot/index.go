package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

const indexName = "index.json"

// An index is a skill's index.json.
type index struct {
	Skill     string     `json:"skill"`
	Snapshots []Snapshot `json:"snapshots"` // oldest first
	// Restored is what the last restore put in place, while no snapshot
	// was taken since: the store then holds a snapshot's content that is
	// not the latest one's.
	Restored *restored `json:"restored,omitempty"`
}

// A restored says which snapshot a restore brought back, and after which
// snapshot (the latest one then) it did.
type restored struct {
	ID    string `json:"id"`
	Hash  string `json:"hash"`
	After string `json:"after"`
}

// List returns the snapshots of skill, oldest first; none when it has none.
func List(r fsys.Reader, root, skill string) ([]Snapshot, error) {
	dir, err := skillDir(root, skill)
	if err != nil {
		return nil, err
	}
	idx, err := readIndex(r, dir, skill)
	if err != nil {
		return nil, err
	}
	return idx.Snapshots, nil
}

func readIndex(r fsys.Reader, dir, skill string) (*index, error) {
	path := filepath.Join(dir, indexName)
	data, err := r.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &index{Skill: skill}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading snapshots: %w", err)
	}
	var idx index
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sort.SliceStable(idx.Snapshots, func(i, j int) bool { return num(idx.Snapshots[i].ID) < num(idx.Snapshots[j].ID) })
	return &idx, nil
}

func (idx *index) write(sys fsys.System, dir string) error {
	data, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return err
	}
	// Written whole beside the index and renamed over it, so a reader sees
	// the old index or the new one; not synced one by one: apply syncs the
	// filesystem once when it is done (System.Sync), and a snapshot
	// command syncs after its one write.
	path := filepath.Join(dir, indexName)
	tmp := filepath.Join(dir, "."+indexName+".new")
	if err := sys.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := sys.WriteNew(tmp, append(data, '\n'), 0o600); err != nil {
		return err
	}
	return sys.Rename(tmp, path)
}

// latest returns the newest snapshot, if any.
func (idx *index) latest() (Snapshot, bool) {
	if len(idx.Snapshots) == 0 {
		return Snapshot{}, false
	}
	return idx.Snapshots[len(idx.Snapshots)-1], true
}

// current returns the snapshot whose content the store held when the
// index was last written: the one a restore brought back, when no
// snapshot was taken since, else the latest.
func (idx *index) current() (Snapshot, bool) {
	last, ok := idx.latest()
	if r := idx.Restored; ok && r != nil && r.After == last.ID {
		if s, err := idx.find(r.ID); err == nil && s.Hash == r.Hash {
			return s, true
		}
	}
	return last, ok
}

// ErrNoSnapshot says a skill has no snapshot with the id asked for: errors.Is
// tells it apart from a snapshot that could not be read.
var ErrNoSnapshot = errors.New("no such snapshot")

// A missingError is an ErrNoSnapshot with its own message.
type missingError struct{ msg string }

func (e missingError) Error() string        { return e.msg }
func (e missingError) Is(target error) bool { return target == ErrNoSnapshot }

func noSnapshot(format string, args ...any) error {
	return missingError{fmt.Sprintf(format, args...)}
}

func (idx *index) find(id string) (Snapshot, error) {
	var ids []string
	for _, s := range idx.Snapshots {
		if s.ID == id {
			return s, nil
		}
		ids = append(ids, s.ID)
	}
	if len(ids) == 0 {
		return Snapshot{}, noSnapshot("skill %s has no snapshots", idx.Skill)
	}
	return Snapshot{}, noSnapshot("skill %s has no snapshot %s; its snapshots are %s", idx.Skill, id, strings.Join(ids, ", "))
}

// nextID returns the id after every id in the index. Ids are never reused:
// pruning only removes fs_change snapshots older than the newest.
func (idx *index) nextID() string {
	n := uint64(0)
	for _, s := range idx.Snapshots {
		n = max(n, num(s.ID))
	}
	return strconv.FormatUint(n+1, 10)
}

// prune drops the fs_change snapshots beyond KeepFSChange, oldest first,
// and returns the ids it dropped.
func (idx *index) prune() []string {
	count := 0
	for _, s := range idx.Snapshots {
		if s.Kind == KindFSChange {
			count++
		}
	}
	var dropped []string
	kept := idx.Snapshots[:0]
	for _, s := range idx.Snapshots {
		if s.Kind == KindFSChange && count > KeepFSChange {
			count--
			dropped = append(dropped, s.ID)
			continue
		}
		kept = append(kept, s)
	}
	idx.Snapshots = kept
	return dropped
}

// tidy removes what a crash can leave in a skill's folder: a copy whose
// index entry was never written, or a staging folder. Callers hold the
// skill's lock, so nothing in progress is touched.
func (idx *index) tidy(sys fsys.System, dir string) error {
	known := map[string]bool{}
	for _, s := range idx.Snapshots {
		known[s.ID] = true
	}
	entries, err := sys.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading snapshots: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		orphan := idPattern.MatchString(name) && !known[name]
		staging := strings.HasPrefix(name, ".") && strings.Contains(name, ".staging-")
		if e.IsDir() && (orphan || staging) {
			if err := sys.RemoveAll(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("removing a leftover snapshot: %w", err)
			}
		}
	}
	return nil
}

func num(id string) uint64 {
	n, _ := strconv.ParseUint(id, 10, 64)
	return n
}
