package autostart

import (
	"fmt"
	"io/fs"
	"path/filepath"
)

// Marker is the first line of every file install writes: what wrote it,
// and how it goes.
const Marker = "Written by chronicle autostart install; chronicle autostart uninstall removes it."

// A File is one file install writes.
type File struct {
	Path string
	Data []byte
	Mode fs.FileMode
}

// Dirs are the folders the files go in.
type Dirs struct {
	// Home is the user's home; ConfigHome is $XDG_CONFIG_HOME, "" for
	// ~/.config.
	Home, ConfigHome string
}

// SystemdDir is where systemd looks for a user's own units.
func (d Dirs) SystemdDir() string {
	base := d.ConfigHome
	if base == "" {
		base = filepath.Join(d.Home, ".config")
	}
	return filepath.Join(base, "systemd", "user")
}

// LaunchAgentsDir is where launchd looks for a user's agents.
func (d Dirs) LaunchAgentsDir() string { return filepath.Join(d.Home, "Library", "LaunchAgents") }

// The names of what install writes, per scheduler.
const (
	SyncService  = "chronicle-sync.service"
	SyncTimer    = "chronicle-sync.timer"
	ServeService = "chronicle-serve.service"
	SyncLabel    = "dev.chronicle.sync"
	ServeLabel   = "dev.chronicle.serve"
	SyncTask     = "chronicle-sync"
	ServeTask    = "chronicle-serve"
)

// Files renders the job for the scheduler of goos: systemd user units on
// Linux (and every other Unix but macOS), launchd agents on macOS, Task
// Scheduler tasks on Windows (their XML in chronicle's folder, registered
// with schtasks by the user: see Enable).
func Files(goos string, d Dirs, j Job) ([]File, error) {
	if err := j.Check(); err != nil {
		return nil, err
	}
	switch goos {
	case "darwin":
		dir := d.LaunchAgentsDir()
		files := []File{{Path: filepath.Join(dir, SyncLabel+".plist"), Data: syncPlist(j), Mode: 0o644}}
		if j.Serve {
			files = append(files, File{Path: filepath.Join(dir, ServeLabel+".plist"), Data: servePlist(j), Mode: 0o644})
		}
		return files, nil
	case "windows":
		dir := filepath.Join(j.ChronicleHome, "autostart")
		files := []File{{Path: filepath.Join(dir, SyncTask+".xml"), Data: syncTask(j), Mode: 0o644}}
		if j.Serve {
			files = append(files, File{Path: filepath.Join(dir, ServeTask+".xml"), Data: serveTask(j), Mode: 0o644})
		}
		return files, nil
	default:
		dir := d.SystemdDir()
		files := []File{
			{Path: filepath.Join(dir, SyncService), Data: syncService(j), Mode: 0o644},
			{Path: filepath.Join(dir, SyncTimer), Data: syncTimer(j), Mode: 0o644},
		}
		if j.Serve {
			files = append(files, File{Path: filepath.Join(dir, ServeService), Data: serveService(j), Mode: 0o644})
		}
		return files, nil
	}
}

// Enable is the one command that starts what install wrote, for a person
// to run where install could not (no user service manager answered);
// quote quotes a path for the shell.
func Enable(goos string, files []File, serve bool, quote func(string) string) string {
	switch goos {
	case "darwin":
		cmd := ""
		for i, f := range files {
			if i > 0 {
				cmd += " && "
			}
			cmd += "launchctl bootstrap gui/$(id -u) " + quote(f.Path)
		}
		return cmd
	case "windows":
		cmd := ""
		for i, f := range files {
			if i > 0 {
				cmd += " & "
			}
			name := SyncTask
			if filepath.Base(f.Path) == ServeTask+".xml" {
				name = ServeTask
			}
			cmd += fmt.Sprintf(`schtasks /Create /TN %s /XML "%s" /F`, name, f.Path)
		}
		return cmd
	default:
		cmd := "systemctl --user enable --now " + SyncTimer
		if serve {
			cmd += " " + ServeService
		}
		return cmd
	}
}
