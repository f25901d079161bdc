package syncstatus

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// FileName is the status file's name in chronicle's folder.
const FileName = "sync-status.json"

// Version is the format Save writes; Load refuses a newer one.
const Version = 1

// Path returns the status file of chronicle's folder chronicleHome.
func Path(chronicleHome string) string { return filepath.Join(chronicleHome, FileName) }

// An Outcome is how a sync ended, in the words the status file keeps.
type Outcome string

// The outcomes of a sync. Applied and InSync exit 0; Pending exits 2 (sync
// --check only); Conflicts and Failed exit 1.
const (
	Applied   Outcome = "applied"         // changes were made (or none were needed)
	InSync    Outcome = "in sync"         // --check: nothing to change
	Pending   Outcome = "changes pending" // --check: this machine is behind
	Conflicts Outcome = "conflicts"       // the plan had conflicts; nothing, or only the rest with --skip-conflicts, was changed
	Failed    Outcome = "failed"          // an error: the repository, the configuration, the plan or a change
)

// A Status is the record of one sync.
type Status struct {
	Version int       `json:"version"`
	Time    time.Time `json:"time"`
	Machine string    `json:"machine,omitempty"`
	// Check says the sync was sync --check: it planned and changed nothing.
	Check   bool    `json:"check,omitempty"`
	Outcome Outcome `json:"outcome"`
	// ExitCode is the code sync exited with; Meaning says it in words.
	ExitCode int    `json:"exit_code"`
	Meaning  string `json:"meaning"`
	// URL, Ref and Commit are the repository followed and the commit the
	// checkout was at after the pull ("" when the pull failed).
	URL    string `json:"url,omitempty"`
	Ref    string `json:"ref,omitempty"`
	Commit string `json:"commit,omitempty"`
	// Added, Changed and Removed count the changes applied.
	Added   int `json:"added"`
	Changed int `json:"changed"`
	Removed int `json:"removed"`
	// AppliedLine and LeftLine are what --skip-conflicts applied and what
	// it left, one line each, as sync printed them.
	AppliedLine string `json:"applied,omitempty"`
	LeftLine    string `json:"left,omitempty"`
	// Conflicts are the addresses of the plan's conflicts.
	Conflicts []string `json:"conflicts,omitempty"`
	// Failed are the addresses of the changes that failed.
	Failed []string `json:"failed,omitempty"`
	// Error is the error sync ended with, as it printed it (masked).
	Error string `json:"error,omitempty"`
}

// Meaning says what a sync's exit code means (SPEC §9): with --check as
// plan --detailed-exitcode, otherwise as apply.
func Meaning(code int, check bool) string {
	switch {
	case code == 0 && check:
		return "0: in sync (--check)"
	case code == 0:
		return "0: applied, or nothing to do"
	case code == 2 && check:
		return "2: changes pending (--check)"
	default:
		return fmt.Sprintf("%d: an error or conflicts", code)
	}
}

// OK reports whether the sync ended well: exit 0, or 2 for --check (the
// machine is behind, which the next sync without --check fixes).
func (s *Status) OK() bool {
	return s.Outcome == Applied || s.Outcome == InSync || s.Outcome == Pending
}

// Load reads the status file at path; a missing file is (nil, nil): no
// sync has run here.
func Load(sys fsys.Reader, path string) (*Status, error) {
	var s Status
	if found, err := fsys.ReadJSON(sys, path, &s); !found || err != nil {
		return nil, err
	}
	if s.Version > Version {
		return nil, fmt.Errorf("%s: format %d is newer than this chronicle reads (%d): upgrade chronicle", path, s.Version, Version)
	}
	return &s, nil
}

// Save writes s to path atomically (mode 0600: it names the repository
// and the addresses chronicle manages).
func Save(sys fsys.System, path string, s *Status) error {
	s.Version = Version
	return fsys.WriteJSON(sys, path, s)
}
