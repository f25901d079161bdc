package autostart

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/backup"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

func job(home string) Job {
	return Job{Binary: "/usr/local/bin/chronicle", ChronicleHome: filepath.Join(home, ".chronicle"),
		Every: 15 * time.Minute, Path: "/home/me/bin:/usr/bin:/bin"}
}

func TestFilesPerScheduler(t *testing.T) {
	d := Dirs{Home: "/home/me"}
	tests := []struct {
		goos  string
		serve bool
		paths []string
	}{
		{"linux", false, []string{"/home/me/.config/systemd/user/chronicle-sync.service", "/home/me/.config/systemd/user/chronicle-sync.timer"}},
		{"linux", true, []string{"/home/me/.config/systemd/user/chronicle-sync.service", "/home/me/.config/systemd/user/chronicle-sync.timer", "/home/me/.config/systemd/user/chronicle-serve.service"}},
		{"freebsd", false, []string{"/home/me/.config/systemd/user/chronicle-sync.service", "/home/me/.config/systemd/user/chronicle-sync.timer"}},
		{"darwin", false, []string{"/home/me/Library/LaunchAgents/dev.chronicle.sync.plist"}},
		{"darwin", true, []string{"/home/me/Library/LaunchAgents/dev.chronicle.sync.plist", "/home/me/Library/LaunchAgents/dev.chronicle.serve.plist"}},
		{"windows", true, []string{"/home/me/.chronicle/autostart/chronicle-sync.xml", "/home/me/.chronicle/autostart/chronicle-serve.xml"}},
	}
	for _, tt := range tests {
		j := job("/home/me")
		j.Serve = tt.serve
		files, err := Files(tt.goos, d, j)
		if err != nil {
			t.Fatalf("%s: %v", tt.goos, err)
		}
		var got []string
		for _, f := range files {
			got = append(got, filepath.ToSlash(f.Path))
			if !ours(f.Data) {
				t.Errorf("%s: %s does not carry the marker", tt.goos, f.Path)
			}
		}
		if strings.Join(got, " ") != strings.Join(tt.paths, " ") {
			t.Errorf("%s serve=%v: files %v, want %v", tt.goos, tt.serve, got, tt.paths)
		}
	}
	xdg, _ := Files("linux", Dirs{Home: "/home/me", ConfigHome: "/cfg"}, job("/home/me"))
	if xdg[0].Path != "/cfg/systemd/user/chronicle-sync.service" {
		t.Errorf("XDG_CONFIG_HOME is not honoured: %s", xdg[0].Path)
	}
}

func TestSyncUnit(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Job)
		want []string
		not  []string
	}{
		{"default", func(*Job) {}, []string{
			"ExecStart=/usr/local/bin/chronicle sync --lock-timeout 5m\n",
			"Environment=PATH=/home/me/bin:/usr/bin:/bin\n",
			"EnvironmentFile=-/home/me/.chronicle/env\n",
			"Type=oneshot\n",
		}, []string{"--skip-conflicts", "--home", "--token-env"}},
		{"skip conflicts, token, home", func(j *Job) { j.SkipConflicts, j.TokenEnv, j.HomeFlag = true, "GH_TOKEN", true }, []string{
			"ExecStart=/usr/local/bin/chronicle sync --lock-timeout 5m --skip-conflicts --token-env GH_TOKEN --home /home/me/.chronicle\n",
		}, nil},
		{"a PATH with a space and a percent sign", func(j *Job) { j.Path = "/opt/my tools/bin:/100%/bin" }, []string{
			`Environment="PATH=/opt/my tools/bin:/100%%/bin"` + "\n",
		}, nil},
		{"a binary with a space and a dollar", func(j *Job) { j.Binary = "/opt/my $apps/chronicle" }, []string{
			`ExecStart="/opt/my $$apps/chronicle" sync`,
		}, nil},
	}
	for _, tt := range tests {
		j := job("/home/me")
		tt.edit(&j)
		unit := string(syncService(j))
		for _, w := range tt.want {
			if !strings.Contains(unit, w) {
				t.Errorf("%s: the unit lacks %q:\n%s", tt.name, w, unit)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(unit, n) {
				t.Errorf("%s: the unit has %q:\n%s", tt.name, n, unit)
			}
		}
	}
}

func TestTimerAndIntervals(t *testing.T) {
	for _, tt := range []struct {
		every           time.Duration
		span, iso, text string
	}{
		{15 * time.Minute, "15min", "PT15M", "15m"},
		{time.Hour, "1h", "PT1H", "1h"},
		{90 * time.Minute, "90min", "PT90M", "1h30m"},
		{90 * time.Second, "90s", "PT90S", "1m30s"},
	} {
		j := job("/home/me")
		j.Every = tt.every
		if got := string(syncTimer(j)); !strings.Contains(got, "OnUnitActiveSec="+tt.span+"\n") || !strings.Contains(got, "WantedBy=timers.target") {
			t.Errorf("%s: timer\n%s", tt.every, got)
		}
		if got := isoDuration(tt.every); got != tt.iso {
			t.Errorf("%s: task interval %s, want %s", tt.every, got, tt.iso)
		}
		if got := Text(tt.every); got != tt.text {
			t.Errorf("%s: text %s, want %s", tt.every, got, tt.text)
		}
	}
}

func TestCheckRefusesWhatCannotRun(t *testing.T) {
	j := job("/home/me")
	j.Every = 30 * time.Second
	if _, err := Files("linux", Dirs{Home: "/home/me"}, j); err == nil || !strings.Contains(err.Error(), "--sync-every 30s: the interval must be at least 1m and at most 31 days") {
		t.Errorf("a 30s interval: %v", err)
	}
	j.Every = 32 * 24 * time.Hour
	if _, err := Files("windows", Dirs{Home: "/home/me"}, j); err == nil {
		t.Error("an interval of 32 days was accepted")
	}
	j = job("/home/me")
	j.Binary = "chronicle"
	if _, err := Files("linux", Dirs{Home: "/home/me"}, j); err == nil || !strings.Contains(err.Error(), "not an absolute path") {
		t.Errorf("a relative binary: %v", err)
	}
}

func TestLaunchdAndWindows(t *testing.T) {
	j := job("/Users/me")
	j.Serve = true
	j.Path = "/opt/a&b/bin:/usr/bin"
	plist := string(syncPlist(j))
	for _, w := range []string{"<string>dev.chronicle.sync</string>", "<string>/usr/local/bin/chronicle</string>\n\t\t<string>sync</string>\n\t\t<string>--lock-timeout</string>\n\t\t<string>5m</string>",
		"<key>StartInterval</key>\n\t<integer>900</integer>", "<string>/opt/a&amp;b/bin:/usr/bin</string>", "/Users/me/.chronicle/sync.log"} {
		if !strings.Contains(plist, w) {
			t.Errorf("the sync plist lacks %q:\n%s", w, plist)
		}
	}
	if serve := string(servePlist(j)); !strings.Contains(serve, "<key>KeepAlive</key>\n\t<true/>") || !strings.Contains(serve, "<string>serve</string>") {
		t.Errorf("the serve plist:\n%s", serve)
	}
	task := string(fromUTF16LE(syncTask(j)))
	for _, w := range []string{`encoding="UTF-16"`, "<Interval>PT15M</Interval>", "<Command>/usr/local/bin/chronicle</Command>", "<Arguments>sync --lock-timeout 5m</Arguments>", "IgnoreNew"} {
		if !strings.Contains(task, w) {
			t.Errorf("the task lacks %q:\n%s", w, task)
		}
	}
	if b := syncTask(j); b[0] != 0xff || b[1] != 0xfe {
		t.Errorf("the task XML has no UTF-16 LE byte order mark: % x", b[:2])
	}
	if got := windowsArgs([]string{"sync", "--home", `C:\Users\Jo Doe\.chronicle`}); got != `sync --home "C:\Users\Jo Doe\.chronicle"` {
		t.Errorf("windows arguments: %s", got)
	}
	files, _ := Files("windows", Dirs{Home: "/Users/me"}, j)
	if got := Enable("windows", files, true, nil); !strings.Contains(got, "schtasks /Create /TN chronicle-sync /XML") || !strings.Contains(got, "/TN chronicle-serve") {
		t.Errorf("windows enable: %s", got)
	}
	files, _ = Files("darwin", Dirs{Home: "/Users/me"}, j)
	quote := func(s string) string { return "'" + s + "'" }
	if got := Enable("darwin", files, true, quote); got != "launchctl bootstrap gui/$(id -u) '/Users/me/Library/LaunchAgents/dev.chronicle.sync.plist' && launchctl bootstrap gui/$(id -u) '/Users/me/Library/LaunchAgents/dev.chronicle.serve.plist'" {
		t.Errorf("darwin enable: %s", got)
	}
	if got := Enable("linux", nil, true, quote); got != "systemctl --user enable --now chronicle-sync.timer chronicle-serve.service" {
		t.Errorf("linux enable: %s", got)
	}
}

// TestSystemdVerifiesTheUnits runs systemd-analyze verify, systemd's own
// check, on the units as install writes them (make test installs Debian's
// systemd; a missing systemd-analyze fails under CI=true).
func TestSystemdVerifiesTheUnits(t *testing.T) {
	analyze := testpeer.Bin(t, "systemd-analyze", "apt-get install systemd (make tools does)")
	home := t.TempDir()
	bin := filepath.Join(home, "bin", "chronicle")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, edit := range []func(*Job){
		func(*Job) {},
		func(j *Job) {
			j.Serve, j.SkipConflicts, j.TokenEnv, j.HomeFlag, j.Every = true, true, "GH_TOKEN", true, 90*time.Second
		},
		func(j *Job) { j.Path = "/opt/my tools/bin:/100%/bin:" + os.Getenv("PATH") },
	} {
		j := job(home)
		j.Binary = bin
		edit(&j)
		files, err := Files("linux", Dirs{Home: home}, j)
		if err != nil {
			t.Fatal(err)
		}
		if err := Write(fsys.OS{}, backup.Begin(fsys.OS{}, j.ChronicleHome, "test", time.Now()), files); err != nil {
			t.Fatal(err)
		}
		args := []string{"--user", "verify"}
		for _, f := range files {
			args = append(args, f.Path)
		}
		cmd := exec.Command(analyze, args...)
		// A user manager's paths need a runtime folder; root in a
		// container has none of its own.
		cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+t.TempDir(), "SYSTEMD_LOG_LEVEL=notice")
		out, err := cmd.CombinedOutput()
		if err != nil || len(strings.TrimSpace(string(out))) > 0 {
			t.Errorf("systemd-analyze --user verify: %v\n%s\n%s", err, out, files[0].Data)
		}
	}
}

func TestWriteRemoveAndLeftovers(t *testing.T) {
	home := t.TempDir()
	ch := filepath.Join(home, ".chronicle")
	d := Dirs{Home: home}
	sys := fsys.OS{}
	// A unit a person wrote by hand is backed up before install replaces it.
	mine := filepath.Join(d.SystemdDir(), SyncService)
	if err := os.MkdirAll(filepath.Dir(mine), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mine, []byte("[Service]\nExecStart=/bin/true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := Files("linux", d, job(home))
	if err != nil {
		t.Fatal(err)
	}
	set := backup.Begin(sys, ch, "autostart install", time.Now())
	if err := Write(sys, set, files); err != nil {
		t.Fatal(err)
	}
	if !set.Has(mine) {
		t.Error("the hand-written unit was not backed up")
	}
	if got := Leftovers(sys, "linux", d, ch); len(got) != 2 {
		t.Errorf("leftovers %v, want the two files written", got)
	}
	// A file without the marker is never a leftover.
	other := filepath.Join(d.SystemdDir(), ServeService)
	if err := os.WriteFile(other, []byte("[Service]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Leftovers(sys, "linux", d, ch); len(got) != 2 {
		t.Errorf("leftovers %v: a file without the marker counts", got)
	}
	removed, err := Remove(sys, backup.Begin(sys, ch, "autostart uninstall", time.Now()), []string{files[0].Path, files[1].Path, filepath.Join(home, "absent")})
	if err != nil || len(removed) != 2 {
		t.Fatalf("removed %v, %v", removed, err)
	}
	for _, f := range files {
		if _, err := os.Stat(f.Path); !os.IsNotExist(err) {
			t.Errorf("%s is still there", f.Path)
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file uninstall did not write went: %v", err)
	}
	// A Windows task's marker is found in its UTF-16.
	task, _ := Files("windows", d, job(home))
	if !ours(task[0].Data) {
		t.Error("the marker is not found in a UTF-16 task")
	}
}

func TestRecordRoundTrip(t *testing.T) {
	path := RecordPath(t.TempDir())
	if r, err := LoadRecord(fsys.OS{}, path); r != nil || err != nil || r.Interval() != 0 {
		t.Fatalf("a missing record: %v, %v", r, err)
	}
	want := &Record{OS: "linux", Every: "15m", Files: []string{"/a"}, Enable: "systemctl --user enable --now chronicle-sync.timer"}
	if err := SaveRecord(fsys.OS{}, path, want); err != nil {
		t.Fatal(err)
	}
	got, err := LoadRecord(fsys.OS{}, path)
	if err != nil || got.Interval() != 15*time.Minute || got.Files[0] != "/a" || got.Version != 1 {
		t.Errorf("read back %+v, %v", got, err)
	}
	if err := os.WriteFile(path, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRecord(fsys.OS{}, path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("a broken record: %v", err)
	}
	if (&Record{Every: "soon"}).Interval() != 0 {
		t.Error("an unreadable interval is not 0")
	}
}
