package syncstatus

import (
	"fmt"
	"time"

	"github.com/chronicle-dev/chronicle/engine/autostart"
)

// Stale is how many timer intervals may pass without a sync before the
// last one counts as too old: a timer that missed one run (a laptop
// asleep) is normal, three in a row is a timer that stopped.
const Stale = 3

// Summary is the last outcome in one line for a person, with how long ago
// it was, as doctor, machine and autostart status print it.
func (s *Status) Summary(now time.Time) string {
	what := string(s.Outcome)
	switch {
	case s.Outcome == Applied:
		what = fmt.Sprintf("applied (%d added, %d changed, %d removed)", s.Added, s.Changed, s.Removed)
		if len(s.Conflicts) > 0 {
			what += fmt.Sprintf(", %d %s left", len(s.Conflicts), plural(len(s.Conflicts), "conflict", "conflicts"))
		}
	case s.Outcome == Conflicts:
		what = fmt.Sprintf("stopped by %d %s", len(s.Conflicts), plural(len(s.Conflicts), "conflict", "conflicts"))
	case s.Outcome == Failed && s.Error != "":
		what = "failed: " + s.Error
	}
	at := ""
	if s.Commit != "" {
		at = " at " + short(s.Commit)
	}
	return fmt.Sprintf("%s%s, %s (exit %s)", what, at, Ago(now.Sub(s.Time)), s.Meaning)
}

// Warning is the one line an interactive command prints when the last
// sync failed, or when it is older than Stale intervals of every (0: no
// timer is installed, so no run is expected); "" when all is well.
func (s *Status) Warning(now time.Time, every time.Duration) string {
	if s == nil {
		return ""
	}
	if !s.OK() {
		return "Warning: the last chronicle sync " + s.Summary(now) + "; details: chronicle machine"
	}
	if every > 0 && now.Sub(s.Time) > Stale*every {
		return fmt.Sprintf("Warning: the last chronicle sync ran %s, more than %d intervals of %s: is its timer running? (chronicle autostart status)", Ago(now.Sub(s.Time)), Stale, autostart.Text(every))
	}
	return ""
}

// Ago says a duration in the past as a person would: "just now", "5 minutes
// ago", "3 hours ago", "2 days ago".
func Ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return count(int(d/time.Minute), "minute", "minutes") + " ago"
	case d < 48*time.Hour:
		return count(int(d/time.Hour), "hour", "hours") + " ago"
	default:
		return count(int(d/(24*time.Hour)), "day", "days") + " ago"
	}
}

func count(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
