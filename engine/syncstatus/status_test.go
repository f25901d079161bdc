package syncstatus

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

func TestSaveLoad(t *testing.T) {
	path := Path(t.TempDir())
	if s, err := Load(fsys.OS{}, path); s != nil || err != nil {
		t.Fatalf("no status yet: %v, %v", s, err)
	}
	at := time.Date(2026, 12, 5, 18, 0, 0, 0, time.UTC)
	want := &Status{Time: at, Outcome: Conflicts, ExitCode: 1, Meaning: Meaning(1, false), Commit: "0123456789abcdef", Conflicts: []string{`link.a["cursor"].service.x`}}
	if err := Save(fsys.OS{}, path, want); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the status file: %v, mode %v", err, info.Mode())
	}
	got, err := Load(fsys.OS{}, path)
	if err != nil || got.Outcome != Conflicts || !got.Time.Equal(at) || got.Version != Version || got.Conflicts[0] != want.Conflicts[0] {
		t.Errorf("read back %+v, %v", got, err)
	}
	for _, bad := range []string{"{", `{"version": 99}`} {
		if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(fsys.OS{}, path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestMeaning(t *testing.T) {
	for _, tt := range []struct {
		code  int
		check bool
		want  string
	}{
		{0, false, "0: applied, or nothing to do"},
		{1, false, "1: an error or conflicts"},
		{0, true, "0: in sync (--check)"},
		{2, true, "2: changes pending (--check)"},
		{1, true, "1: an error or conflicts"},
	} {
		if got := Meaning(tt.code, tt.check); got != tt.want {
			t.Errorf("Meaning(%d, %v) = %q, want %q", tt.code, tt.check, got, tt.want)
		}
	}
}

func TestSummaryAndWarning(t *testing.T) {
	now := time.Date(2026, 12, 5, 18, 0, 0, 0, time.UTC)
	every := 15 * time.Minute
	tests := []struct {
		name    string
		s       Status
		summary string
		warning string
	}{
		{"applied a minute ago", Status{Time: now.Add(-90 * time.Second), Outcome: Applied, Added: 2, Commit: "0123456789abcdef", Meaning: Meaning(0, false)},
			"applied (2 added, 0 changed, 0 removed) at 0123456789ab, 1 minute ago (exit 0: applied, or nothing to do)", ""},
		{"applied, conflicts left", Status{Time: now.Add(-20 * time.Minute), Outcome: Applied, Conflicts: []string{"a"}, Meaning: Meaning(0, false)},
			"applied (0 added, 0 changed, 0 removed), 1 conflict left, 20 minutes ago", ""},
		{"stale", Status{Time: now.Add(-50 * time.Minute), Outcome: Applied, Meaning: Meaning(0, false)},
			"50 minutes ago", "Warning: the last chronicle sync ran 50 minutes ago, more than 3 intervals of 15m: is its timer running? (chronicle autostart status)"},
		{"conflicts", Status{Time: now.Add(-3 * 24 * time.Hour), Outcome: Conflicts, Conflicts: []string{"a", "b"}, Meaning: Meaning(1, false)},
			"stopped by 2 conflicts, 3 days ago (exit 1: an error or conflicts)", "Warning: the last chronicle sync stopped by 2 conflicts"},
		{"failed", Status{Time: now, Outcome: Failed, Error: "no network", Meaning: Meaning(1, false)},
			"failed: no network, just now", "Warning: the last chronicle sync failed: no network, just now"},
		{"pending is not a failure", Status{Time: now, Outcome: Pending, Check: true, Meaning: Meaning(2, true)},
			"changes pending, just now (exit 2: changes pending (--check))", ""},
	}
	for _, tt := range tests {
		if got := tt.s.Summary(now); !strings.Contains(got, tt.summary) {
			t.Errorf("%s: summary %q lacks %q", tt.name, got, tt.summary)
		}
		got := tt.s.Warning(now, every)
		if tt.warning == "" && got != "" || !strings.Contains(got, tt.warning) {
			t.Errorf("%s: warning %q, want %q", tt.name, got, tt.warning)
		}
	}
	var none *Status
	if none.Warning(now, every) != "" {
		t.Error("no sync yet is not a warning")
	}
	old := Status{Time: now.Add(-24 * time.Hour), Outcome: Applied}
	if old.Warning(now, 0) != "" {
		t.Error("without a timer, an old sync is not a warning")
	}
}
