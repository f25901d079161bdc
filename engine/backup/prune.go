package backup

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// Prune removes backup sets: those named by ids (original included, only
// when named), and, when olderThan is positive, every timestamped set made
// before now minus olderThan, kept sets included. It is the only way a set
// holding something --replace moved aside goes away. It returns the ids
// removed; an unknown id is an error and removes nothing.
func Prune(sys fsys.System, chronicleHome string, ids []string, olderThan time.Duration, now time.Time) ([]string, error) {
	root := Dir(chronicleHome)
	sets, err := list(sys, root)
	if err != nil {
		return nil, err
	}
	var doomed []*Set
	for _, id := range ids {
		i := slices.IndexFunc(sets, func(s *Set) bool { return s.ID == id })
		if i < 0 {
			return nil, fmt.Errorf("no backup set %q: chronicle backups list shows them", id)
		}
		doomed = append(doomed, sets[i])
	}
	if olderThan > 0 {
		cutoff := now.Add(-olderThan)
		for _, s := range sets {
			if s.ID != OriginalID && s.Created.Before(cutoff) && !slices.Contains(doomed, s) {
				doomed = append(doomed, s)
			}
		}
	}
	var removed []string
	for _, s := range doomed {
		if err := sys.RemoveAll(filepath.Join(root, s.ID)); err != nil {
			return removed, fmt.Errorf("removing backup %s: %w", s.ID, err)
		}
		removed = append(removed, s.ID)
	}
	return removed, nil
}

// ParseAge reads a duration as Go writes it ("36h") or in days ("30d").
func ParseAge(s string) (time.Duration, error) {
	var days int
	if n, err := fmt.Sscanf(s, "%dd", &days); err == nil && n == 1 && fmt.Sprintf("%dd", days) == s && days >= 0 {
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not an age such as 30d or 36h", s)
	}
	return d, nil
}
