package snapshot

import (
	"fmt"
	"path/filepath"
	"regexp"
	"time"

	"github.com/chronicle-dev/chronicle/engine/names"
)

// A Kind says why a snapshot was taken.
type Kind string

// The kinds of snapshot.
const (
	KindImported Kind = "imported"  // the skill as first imported; kept forever
	KindApply    Kind = "apply"     // before apply replaced the skill
	KindFSChange Kind = "fs_change" // after the watcher saw an edit; rolling
	KindRestore  Kind = "restore"   // before a restore replaced the skill
)

// KeepFSChange is how many fs_change snapshots of a skill are kept.
const KeepFSChange = 50

// A Snapshot is one entry of a skill's index.
type Snapshot struct {
	ID         string    `json:"id"` // "1", "2", … in the order taken
	Kind       Kind      `json:"kind"`
	Time       time.Time `json:"time"`
	Hash       string    `json:"hash"` // skills.Hash of the copy
	OriginRepo string    `json:"origin_repo,omitempty"`
	OriginSHA  string    `json:"origin_sha,omitempty"`
	Note       string    `json:"note,omitempty"`
}

// Meta is what the caller says about a snapshot it takes.
type Meta struct {
	OriginRepo string
	OriginSHA  string
	Note       string
	// Hash is the folder's hash when the caller knows it (apply, which has
	// just written the folder); empty: Take hashes the folder.
	Hash string
	// Batch says the caller takes many snapshots and then makes them
	// durable at once (fsys.System.Sync); otherwise Take syncs after each.
	Batch bool
}

// Dir returns the snapshots folder under chronicle's home: the root the
// other functions take.
func Dir(chronicleHome string) string { return filepath.Join(chronicleHome, "snapshots") }

var idPattern = regexp.MustCompile(`^[1-9][0-9]{0,17}$`)

// skillDir returns root/skill after checking that skill is a valid name, so
// no caller's string can reach outside root.
func skillDir(root, skill string) (string, error) {
	if !names.Valid(skill) {
		return "", fmt.Errorf("%q is not a valid skill name: %s", skill, names.Rule)
	}
	return filepath.Join(root, skill), nil
}

func checkID(skill, id string) error {
	if !idPattern.MatchString(id) {
		return noSnapshot("%q is not a snapshot id of skill %s: ids are numbers such as 3", id, skill)
	}
	return nil
}

func checkKind(k Kind) error {
	switch k {
	case KindImported, KindApply, KindFSChange, KindRestore:
		return nil
	}
	return fmt.Errorf("%q is not a snapshot kind", k)
}
