package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/autostart"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/syncstatus"
)

func (a *app) autostartStatusCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show whether the timer is installed and enabled, its next run and the last sync",
		Long: `status shows whether autostart is installed (and each file it wrote), whether the
timer is enabled and when it runs next (as the service manager says, where one
answers), and the last sync's outcome from ~/.chronicle/sync-status.json.`,
		Example: "  chronicle autostart status",
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return a.autostartStatus() },
	}
}

func (a *app) autostartStatus() error {
	s, err := a.autostartSetting()
	if err != nil {
		return err
	}
	sys := fsys.ReadOnly(fsys.OS{})
	rec, err := autostart.LoadRecord(sys, autostart.RecordPath(s.chronicleHome))
	if err != nil {
		return failf("%s", err)
	}
	last, lastErr := syncstatus.Load(sys, syncstatus.Path(s.chronicleHome))
	now := time.Now()
	if rec == nil {
		fmt.Fprintln(a.stdout, "Installed: no (chronicle autostart install --sync-every 15m)")
	} else {
		fmt.Fprintf(a.stdout, "Installed: yes, sync every %s (installed %s)\n", autostart.Text(rec.Interval()), syncstatus.Ago(now.Sub(rec.Installed)))
		for _, p := range rec.Files {
			state := "present"
			if _, err := sys.Lstat(p); errors.Is(err, fs.ErrNotExist) {
				state = "missing (chronicle autostart install writes it again)"
			}
			fmt.Fprintf(a.stdout, "  %s: %s\n", tildePath(s.home, p), state)
		}
		enabled, next := a.autostartState(s, rec)
		fmt.Fprintf(a.stdout, "Enabled: %s\n", enabled)
		if next == "" {
			next = "unknown"
			if last != nil && rec.Interval() > 0 {
				next = fmt.Sprintf("unknown to the service manager; an interval after the last sync is %s", last.Time.Add(rec.Interval()).Local().Format("2006-01-02 15:04"))
			}
		}
		fmt.Fprintf(a.stdout, "Next run: %s\n", next)
	}
	switch {
	case lastErr != nil:
		fmt.Fprintf(a.stdout, "Last sync: unreadable: %s\n", lastErr)
	case last == nil:
		fmt.Fprintln(a.stdout, "Last sync: none yet")
	default:
		fmt.Fprintf(a.stdout, "Last sync: %s\n", last.Summary(now))
		a.writeSyncDetails(last)
		if w := last.Warning(now, rec.Interval()); w != "" {
			fmt.Fprintln(a.stdout, w)
		}
	}
	return nil
}

// autostartState says whether the jobs are enabled and, when the service
// manager answers, when the timer runs next ("" when it does not say).
func (a *app) autostartState(s autostartSetting, rec *autostart.Record) (enabled, next string) {
	switch rec.OS {
	case "windows":
		return "registered with schtasks: " + rec.Enable + " (schtasks /Query /TN " + autostart.SyncTask + " shows it)", ""
	case "darwin":
		if runtime.GOOS == "darwin" {
			if _, err := serviceManager("launchctl", "print", launchdDomain()+"/"+autostart.SyncLabel); err == nil {
				return "yes (launchd has " + autostart.SyncLabel + ")", ""
			}
		}
		return "no: " + rec.Enable, ""
	}
	if out, err := serviceManager("systemctl", "--user", "is-enabled", autostart.SyncTimer); err == nil {
		enabled = out
		if out, err := serviceManager("systemctl", "--user", "list-timers", "--all", "--no-legend", "--no-pager", autostart.SyncTimer); err == nil && out != "" {
			next = out
		}
		return enabled, next
	}
	// No service manager answers: enabling is a link in timers.target.wants.
	link := filepath.Join(s.dirs.SystemdDir(), "timers.target.wants", autostart.SyncTimer)
	if _, err := (fsys.OS{}).Lstat(link); err == nil {
		return "yes (" + tildePath(s.home, link) + "; no user service manager answers here)", ""
	}
	return "no (no user service manager answers here): " + rec.Enable, ""
}

// writeSyncDetails prints what the last sync applied and left, and its
// conflicts, a line each.
func (a *app) writeSyncDetails(st *syncstatus.Status) {
	if st.AppliedLine != "" {
		fmt.Fprintf(a.stdout, "  %s\n", st.AppliedLine)
	}
	if st.LeftLine != "" {
		fmt.Fprintf(a.stdout, "  %s\n", st.LeftLine)
	}
	if st.LeftLine == "" {
		for _, c := range st.Conflicts {
			fmt.Fprintf(a.stdout, "  ! %s\n", c)
		}
	}
	for _, f := range st.Failed {
		fmt.Fprintf(a.stdout, "  failed: %s\n", f)
	}
}
