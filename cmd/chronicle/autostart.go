package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/autostart"
	"github.com/chronicle-dev/chronicle/engine/backup"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
)

func (a *app) autostartCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "autostart",
		Short: "Run chronicle sync on a timer (and keep serve running), or see how it went",
		Long: `autostart makes the operating system run chronicle sync every interval with
nobody watching: systemd user units on Linux ($XDG_CONFIG_HOME/systemd/user,
default ~/.config/systemd/user), a launchd agent on macOS
(~/Library/LaunchAgents), a Task Scheduler task on Windows (its XML in
~/.chronicle/autostart, registered with the schtasks command install prints).

The timer runs "chronicle sync --lock-timeout 5m" with the PATH of the shell
that installed it, so which tools are present is decided as by hand. A private
repository's token is read from ~/.chronicle/env (never written in a unit):
install --token-env NAME. Every sync records how it went in
~/.chronicle/sync-status.json; autostart status, doctor and machine show it.`,
		Example: `  chronicle autostart install --sync-every 15m
  chronicle autostart install --sync-every 1h --serve --token-env GITHUB_TOKEN
  chronicle autostart status
  chronicle autostart uninstall`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(a.autostartInstallCommand(), a.autostartStatusCommand(), a.autostartUninstallCommand())
	return cmd
}

func (a *app) autostartInstallCommand() *cobra.Command {
	j := autostart.Job{}
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Write and enable the timer that runs chronicle sync",
		Long: `install writes the scheduler's files (backing up any file it replaces) and enables
them. Where no user service manager answers (a container, an SSH session, CI),
the files are still written and install prints the one command that enables
them. Installing again replaces the files with the new settings.`,
		Example: `  chronicle autostart install --sync-every 15m
  chronicle autostart install --sync-every 1h --serve --token-env GITHUB_TOKEN
  chronicle autostart install --sync-every 30m --skip-conflicts`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return a.autostartInstall(j) },
	}
	f := cmd.Flags()
	f.DurationVar(&j.Every, "sync-every", 15*time.Minute, "run chronicle sync every `DURATION` (at least 1m)")
	f.BoolVar(&j.Serve, "serve", false, "also keep chronicle serve (the MCP hub) running")
	f.BoolVar(&j.SkipConflicts, "skip-conflicts", false, "the timer's sync makes every change but the conflicts (default: a conflict stops it)")
	f.StringVar(&j.TokenEnv, "token-env", "", "a private repository's token is in `VARIABLE` (in ~/.chronicle/env or the environment)")
	return cmd
}

// autostartSetting is where this machine's scheduler keeps things.
type autostartSetting struct {
	home, chronicleHome string
	dirs                autostart.Dirs
}

func (a *app) autostartSetting() (autostartSetting, error) {
	home, err := a.userHome()
	if err != nil {
		return autostartSetting{}, err
	}
	ch, err := a.chronicleHome()
	if err != nil {
		return autostartSetting{}, err
	}
	return autostartSetting{home: home, chronicleHome: ch, dirs: autostart.Dirs{Home: home, ConfigHome: os.Getenv("XDG_CONFIG_HOME")}}, nil
}

func (a *app) autostartInstall(j autostart.Job) error {
	s, err := a.autostartSetting()
	if err != nil {
		return err
	}
	bin, errMsg := startedBinary("a timer can start it")
	if errMsg != "" {
		return failf("%s", errMsg)
	}
	j.Binary, j.ChronicleHome, j.Path = bin, s.chronicleHome, os.Getenv("PATH")
	j.HomeFlag = s.chronicleHome != filepath.Join(s.home, ".chronicle")
	files, err := autostart.Files(runtime.GOOS, s.dirs, j)
	if err != nil {
		return failf("%s", err)
	}
	sys := fsys.OS{}
	var replaced []string
	for _, f := range files {
		if _, err := sys.Lstat(f.Path); err == nil {
			replaced = append(replaced, f.Path)
		}
	}
	set := backup.Begin(sys, s.chronicleHome, "autostart install", time.Now())
	if err := autostart.Write(sys, set, files); err != nil {
		return failf("%s", err)
	}
	// What an earlier install wrote and this one does not (--serve
	// dropped, another XDG_CONFIG_HOME) goes.
	if old, _ := autostart.LoadRecord(sys, autostart.RecordPath(s.chronicleHome)); old != nil {
		var stale []string
		for _, p := range old.Files {
			if !slices.ContainsFunc(files, func(f autostart.File) bool { return f.Path == p }) {
				stale = append(stale, p)
			}
		}
		removed, err := autostart.Remove(sys, set, stale)
		for _, p := range removed {
			fmt.Fprintf(a.stdout, "Removed %s (an earlier install's)\n", tildePath(s.home, p))
		}
		if err != nil {
			return failf("%s", err)
		}
	}
	enable := autostart.Enable(runtime.GOOS, files, j.Serve, plan.ShellQuote)
	rec := &autostart.Record{Installed: time.Now().UTC(), OS: runtime.GOOS, Every: autostart.Text(j.Every), Serve: j.Serve,
		SkipConflicts: j.SkipConflicts, TokenEnv: j.TokenEnv, Enable: enable}
	for _, f := range files {
		rec.Files = append(rec.Files, f.Path)
		fmt.Fprintf(a.stdout, "Wrote %s\n", tildePath(s.home, f.Path))
	}
	if err := autostart.SaveRecord(sys, autostart.RecordPath(s.chronicleHome), rec); err != nil {
		return failf("%s", err)
	}
	if len(replaced) > 0 {
		fmt.Fprintf(a.stdout, "It replaced %s: a copy is in backup set %s (chronicle backups list).\n", strings.Join(tildePaths(s.home, replaced), ", "), set.ID)
	}
	fmt.Fprintf(a.stdout, "The timer runs %s every %s.\n", strings.Join(append([]string{"chronicle"}, j.SyncArgs()...), " "), autostart.Text(j.Every))
	if err := a.enableAutostart(files, j.Serve); err != nil {
		fmt.Fprintf(a.stdout, "Not enabled: %s.\nThe files are written; enable them with:\n  %s\n", err, enable)
	} else {
		fmt.Fprintf(a.stdout, "Enabled: %s\n", enable)
	}
	if runtime.GOOS == "linux" && !lingering() {
		u := userName()
		fmt.Fprintf(a.stdout, "Lingering is off for %s: a user timer runs only while %s is logged in. To run it always: loginctl enable-linger %s\n", u, u, u)
	}
	return nil
}

// enableAutostart asks this machine's service manager to start what
// install wrote; an error says why it could not (none answers).
func (a *app) enableAutostart(files []autostart.File, serve bool) error {
	switch runtime.GOOS {
	case "windows":
		return errors.New("chronicle does not register Windows tasks itself")
	case "darwin":
		for _, f := range files {
			label := strings.TrimSuffix(filepath.Base(f.Path), ".plist")
			_, _ = serviceManager("launchctl", "bootout", launchdDomain()+"/"+label)
			if _, err := serviceManager("launchctl", "bootstrap", launchdDomain(), f.Path); err != nil {
				return err
			}
		}
		return nil
	default:
		if _, err := serviceManager("systemctl", "--user", "daemon-reload"); err != nil {
			return err
		}
		units := []string{autostart.SyncTimer}
		if serve {
			units = append(units, autostart.ServeService)
		}
		_, err := serviceManager("systemctl", append([]string{"--user", "enable", "--now"}, units...)...)
		return err
	}
}

// serviceManager runs systemctl or launchctl and returns its output; an
// error carries the first line it printed (Failed to connect to bus, …).
func serviceManager(name string, args ...string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s is not on PATH", name)
	}
	out, err := exec.Command(path, args...).CombinedOutput()
	if err != nil {
		line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		if line == "" {
			line = err.Error()
		}
		return "", fmt.Errorf("%s %s: %s", name, strings.Join(args, " "), line)
	}
	return strings.TrimSpace(string(out)), nil
}

func launchdDomain() string { return fmt.Sprintf("gui/%d", os.Getuid()) }

// lingerDir is where systemd-logind records the users whose manager runs
// without a session (loginctl enable-linger).
const lingerDir = "/var/lib/systemd/linger"

// lingering reports whether this user's systemd manager runs while the
// user is logged out: a user timer runs only while it does.
func lingering() bool {
	_, err := os.Stat(filepath.Join(lingerDir, userName()))
	return err == nil
}

// userName is the login name loginctl knows the user by.
func userName() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return os.Getenv("LOGNAME")
}

func tildePaths(home string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = tildePath(home, p)
	}
	return out
}

func (a *app) autostartUninstallCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "uninstall",
		Short: "Disable the timer and remove every file install wrote",
		Long: `uninstall stops and disables what install enabled (where a service manager
answers) and removes every file install wrote, after a backup. With nothing
installed it says so. Exit code 0 either way.`,
		Example: "  chronicle autostart uninstall",
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return a.autostartUninstall() },
	}
}

func (a *app) autostartUninstall() error {
	s, err := a.autostartSetting()
	if err != nil {
		return err
	}
	sys := fsys.OS{}
	recPath := autostart.RecordPath(s.chronicleHome)
	rec, err := autostart.LoadRecord(sys, recPath)
	if err != nil {
		fmt.Fprintf(a.stderr, "Warning: %s; removing the files chronicle writes where they would be\n", err)
	}
	paths := autostart.Leftovers(sys, runtime.GOOS, s.dirs, s.chronicleHome)
	if rec != nil {
		paths = append(rec.Files, paths...)
	}
	paths = unique(paths)
	if len(paths) == 0 && rec == nil {
		fmt.Fprintln(a.stdout, "Nothing to uninstall: chronicle autostart is not installed.")
		return nil
	}
	a.disableAutostart(s, paths)
	set := backup.Begin(sys, s.chronicleHome, "autostart uninstall", time.Now())
	removed, err := autostart.Remove(sys, set, paths)
	for _, p := range removed {
		fmt.Fprintf(a.stdout, "Removed %s\n", tildePath(s.home, p))
	}
	if err != nil {
		return failf("%s", err)
	}
	if err := sys.Remove(recPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return failf("%s: %s", recPath, err)
	}
	if len(removed) > 0 {
		fmt.Fprintf(a.stdout, "Copies are in backup set %s (chronicle backups list).\n", set.ID)
	}
	return nil
}

// disableAutostart stops and disables the jobs, where a service manager
// answers, and removes the links that enabling made in systemd's .wants
// folders (they point at the files about to go).
func (a *app) disableAutostart(s autostartSetting, paths []string) {
	switch runtime.GOOS {
	case "windows":
		fmt.Fprintf(a.stdout, "Remove the registered tasks with: schtasks /Delete /TN %s /F & schtasks /Delete /TN %s /F\n", autostart.SyncTask, autostart.ServeTask)
	case "darwin":
		for _, label := range []string{autostart.SyncLabel, autostart.ServeLabel} {
			_, _ = serviceManager("launchctl", "bootout", launchdDomain()+"/"+label)
		}
	default:
		units := []string{autostart.SyncTimer, autostart.ServeService}
		if _, err := serviceManager("systemctl", append([]string{"--user", "disable", "--now"}, units...)...); err != nil {
			fmt.Fprintf(a.stdout, "Not disabled: %s.\n", err)
		}
		sys := fsys.OS{}
		for _, w := range []string{"timers.target.wants/" + autostart.SyncTimer, "default.target.wants/" + autostart.ServeService} {
			link := filepath.Join(s.dirs.SystemdDir(), filepath.FromSlash(w))
			if target, err := sys.Readlink(link); err == nil && slices.Contains(paths, target) {
				if err := sys.Remove(link); err == nil {
					fmt.Fprintf(a.stdout, "Removed %s\n", tildePath(s.home, link))
				}
			}
		}
		_, _ = serviceManager("systemctl", "--user", "daemon-reload")
	}
}
