package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
	"github.com/chronicle-dev/chronicle/engine/lock"
	"github.com/chronicle-dev/chronicle/engine/syncstatus"
)

// TestCtrlCStopsAGitTransfer interrupts chronicle (SIGINT, as Ctrl-C does)
// while a clone is in progress against a server that has gone quiet: the
// command ends with an error saying it was cancelled, leaves no temporary
// folder behind, and releases the state lock.
func TestCtrlCStopsAGitTransfer(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "dots")
	repo.Write("chronicle.hcl", "# nothing yet\n")
	repo.Write("skills/pdf/SKILL.md", skillMD("pdf", "Read PDFs."))
	repo.Commit("first")
	repo.Push()
	stalled := srv.Stall("dots")
	bin := chronicleBinary(t)

	for _, tc := range []struct {
		name string
		args []string
		cfg  string // a configuration directory's chronicle.hcl, when the command needs one
	}{
		{name: "sync", args: []string{"sync", "--repo", repo.URL()}},
		{name: "plan", args: []string{"plan"}, cfg: `skill "pdf" {
  git  = "` + repo.URL() + `"
  path = "skills/pdf"
}
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			tmp := t.TempDir()
			os.MkdirAll(home, 0o755)
			dir := home
			if tc.cfg != "" {
				dir = filepath.Join(home, "dots")
				writeConfig(t, dir, tc.cfg)
			}
			cmd := exec.Command(bin, tc.args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+home, "CHRONICLE_HOME=", "XDG_CONFIG_HOME=", "CODEX_HOME=",
				"SSL_CERT_FILE="+srv.CertFile, "TMPDIR="+tmp)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case <-stalled:
			case err := <-exited:
				t.Fatalf("chronicle %s ended before its transfer began: %v\n%s", tc.name, err, out.String())
			}
			if err := cmd.Process.Signal(os.Interrupt); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(time.Minute): // a hang guard, far beyond a clean stop
				cmd.Process.Kill()
				<-exited
				t.Fatalf("chronicle %s was still running a minute after Ctrl-C:\n%s", tc.name, out.String())
			}
			if st := cmd.ProcessState; !st.Exited() || st.ExitCode() != 1 {
				t.Fatalf("chronicle %s after Ctrl-C: %v, want exit status 1 (a clean end)\n%s", tc.name, st, out.String())
			}
			// The error is the cancelled transfer's (its cause: the
			// signal), then the note that chronicle stopped.
			text := out.String()
			if !strings.Contains(text, "interrupt signal received") && !strings.Contains(text, "context canceled") ||
				!strings.Contains(text, "Interrupted: chronicle stopped before it finished.") {
				t.Errorf("chronicle %s after Ctrl-C does not say it was cancelled:\n%s", tc.name, text)
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("temporary folders left behind: %v", names(left))
			}
			ch := filepath.Join(home, ".chronicle")
			left, _ := os.ReadDir(ch)
			for _, e := range left {
				if e.Name() == syncstatus.FileName && tc.name == "sync" {
					// sync records how it ended: interrupted.
					if st, err := syncstatus.Load(fsys.OS{}, filepath.Join(ch, e.Name())); err != nil || st.Outcome != syncstatus.Failed || st.ExitCode != 1 {
						t.Errorf("the interrupted sync's status: %+v, %v", st, err)
					}
					continue
				}
				if e.Name() != "state.lock" {
					t.Errorf("%s left in %s", e.Name(), ch)
				}
			}
			l, err := lock.Acquire(context.Background(), filepath.Join(ch, "state.lock"), "test", 0)
			if err != nil {
				t.Fatalf("the state lock after Ctrl-C: %v", err)
			}
			l.Release()
		})
	}
}

func names(entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
