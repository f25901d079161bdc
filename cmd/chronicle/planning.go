package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hashcache"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/providers"
)

// planFlags are the options shared by plan, apply and sync.
type planFlags struct {
	replace []string
	destroy bool
	offline bool
	// sync says the plan is sync's: its hints name sync's flags.
	sync bool
	// machineRenamed proceeds although the machine's name is not the one
	// that last applied the state (machine.RenamedFlag).
	machineRenamed bool
}

// machineRenamedFlag adds --machine-renamed to plan, apply and sync.
func machineRenamedFlag(cmd *cobra.Command, f *planFlags) {
	cmd.Flags().BoolVar(&f.machineRenamed, "machine-renamed", false, "proceed although this machine's name differs from the one that last applied the state (a rename on purpose)")
}

// hintCommands are the command lines the plan's hints name (engine/plan
// writes the hints): sync's own flags after a sync, and --chdir where the
// configuration is not the working directory.
func (a *app) hintCommands(f planFlags) plan.Commands {
	chdir := ""
	if a.chdir != "" {
		if dir, err := a.configDir(); err == nil {
			chdir = " --chdir " + plan.ShellQuote(dir)
		}
	}
	if f.sync {
		return plan.Commands{Apply: "chronicle sync", Import: "chronicle" + chdir + " import"}
	}
	return plan.Commands{Apply: "chronicle" + chdir + " apply", Import: "chronicle" + chdir + " import"}
}

// statePath is ~/.chronicle/state.json.
func (m *workspace) statePath() string { return filepath.Join(m.chronicleHome, "state.json") }

// loadState reads the state (a new one when there is none).
func (m *workspace) loadState() (*state.State, error) {
	return state.Load(m.statePath())
}

// compute plans cfg on the machine against st: the engine returns the whole
// plan (changes with what they saw, unmanaged items, warnings); cmd only
// renders it. shown is how many unmanaged items the output lists
// (unmanagedShown for the human view, 0 for all of them): the skill
// folders past them are counted without being read.
func (a *app) compute(l *loaded, m *workspace, st *state.State, f planFlags, shown int) *plan.Plan {
	replace := map[string]bool{}
	for _, r := range f.replace {
		replace[r] = true
	}
	hubCmd, hubErr := a.hubCommand(m)
	// The catalogue cache only informs (Plan.Context): one that cannot be
	// read counts as none.
	cat, _ := catalog.Load(catalog.Path(m.chronicleHome))
	if m.hashes == nil {
		m.hashes = hashcache.Load(filepath.Join(m.chronicleHome, hashcache.FileName), nil)
	}
	reader := fsys.ReadOnly(fsys.OS{})
	return plan.Compute(plan.Inputs{
		Lists: providers.Lists{}, OAuth: providers.OAuth,
		Config: l.cfg, ConfigWarnings: l.report.warnings(), State: st, Tools: m.tools, Env: m.env,
		StoreDir: m.store.Dir, HubCommand: hubCmd, HubError: hubErr, HubTokenFile: hubtoken.Path(m.chronicleHome), Replace: replace, Destroy: f.destroy,
		Chronicle: version, Offline: f.offline, Resolver: a.resolver(), Masker: a.masker,
		Progress: a.progress(), Context: a.ctx, Reader: reader, Hashes: m.hashes.Hasher(reader), Scratch: fsys.OS{}, EUID: os.Geteuid(),
		Catalog: cat, Commands: a.hintCommands(f), Lock: l.lock, Ignore: l.ignored(), UnmanagedShown: shown,
	})
}

// hubCommand is the command line a tool runs to start the hub: the
// absolute path of chronicle on PATH, else of this binary, with --home when
// chronicle's folder is not the default.
func (a *app) hubCommand(m *workspace) ([]string, string) {
	bin, errMsg := startedBinary("tools can start chronicle serve --stdio")
	if errMsg != "" {
		return nil, errMsg
	}
	args := []string{bin, "serve", "--stdio"}
	if m.chronicleHome != filepath.Join(m.home, ".chronicle") {
		args = append(args, "--home", m.chronicleHome)
	}
	return args, ""
}

// startedBinary is the chronicle that other programs (tools, timers)
// start: the absolute path of chronicle on PATH, else of this binary; an
// error message, naming what needs it (so that …), for a binary in the Go
// build cache.
func startedBinary(soThat string) (string, string) {
	bin, err := exec.LookPath("chronicle")
	if err == nil {
		bin, err = filepath.Abs(bin)
	}
	if err != nil {
		if bin, err = os.Executable(); err != nil {
			return "", "cannot find the chronicle binary: " + err.Error()
		}
	}
	if strings.Contains(bin, string(filepath.Separator)+"go-build") {
		return "", "chronicle is running from the Go build cache (go run), a path that will not last; install it first (go install ./cmd/chronicle) so that " + soThat
	}
	return bin, ""
}

// progress is where long work (git clones) reports progress: stderr, only
// on a terminal.
func (a *app) progress() io.Writer {
	if a.color(a.stderr) {
		return a.stderr
	}
	return nil
}

// ignored is the set of addresses this machine's file leaves alone.
func (l *loaded) ignored() map[string]bool {
	out := map[string]bool{}
	if l.machine != nil {
		for _, addr := range l.machine.Ignore {
			out[addr] = true
		}
	}
	return out
}
