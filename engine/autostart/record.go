package autostart

import (
	"path/filepath"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// RecordName is the record's name in chronicle's folder.
const RecordName = "autostart.json"

// RecordPath returns the record of chronicle's folder chronicleHome.
func RecordPath(chronicleHome string) string { return filepath.Join(chronicleHome, RecordName) }

// A Record is what install wrote: status reads the interval from it (a
// sync older than three intervals is a stopped timer) and uninstall
// removes exactly its files.
type Record struct {
	Version   int       `json:"version"`
	Installed time.Time `json:"installed"`
	// OS is the scheduler's platform (runtime.GOOS at install).
	OS string `json:"os"`
	// Every is the interval, as Go writes durations ("15m0s").
	Every         string   `json:"every"`
	Serve         bool     `json:"serve,omitempty"`
	SkipConflicts bool     `json:"skip_conflicts,omitempty"`
	TokenEnv      string   `json:"token_env,omitempty"`
	Files         []string `json:"files"`
	// Enable is the command that starts the files' jobs.
	Enable string `json:"enable"`
}

// Interval returns Every as a duration; 0 when it does not read as one.
func (r *Record) Interval() time.Duration {
	if r == nil {
		return 0
	}
	d, err := time.ParseDuration(r.Every)
	if err != nil {
		return 0
	}
	return d
}

// LoadRecord reads the record at path; a missing file is (nil, nil):
// nothing is installed.
func LoadRecord(sys fsys.Reader, path string) (*Record, error) {
	var r Record
	if found, err := fsys.ReadJSON(sys, path, &r); !found || err != nil {
		return nil, err
	}
	return &r, nil
}

// SaveRecord writes r to path atomically.
func SaveRecord(sys fsys.System, path string, r *Record) error {
	r.Version = 1
	return fsys.WriteJSON(sys, path, r)
}
