package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// planFlags are the options shared by plan and apply.
type planFlags struct {
	replace []string
	destroy bool
	offline bool
}

// statePath is ~/.chronicle/state.json.
func (m *machine) statePath() string { return filepath.Join(m.chronicleHome, "state.json") }

// loadState reads the state (a new one when there is none).
func (m *machine) loadState() (*state.State, error) {
	return state.Load(m.statePath())
}

// toolMap indexes the machine's providers by tool name.
func (m *machine) toolMap() map[string]provider.Provider {
	out := map[string]provider.Provider{}
	for _, p := range m.tools {
		out[p.Name()] = p
	}
	return out
}

// compute plans cfg on the machine against st.
func (a *app) compute(cfg *config.Config, m *machine, st *state.State, f planFlags) *plan.Plan {
	replace := map[string]bool{}
	for _, r := range f.replace {
		replace[r] = true
	}
	hubCmd, hubErr := a.hubCommand(m)
	p := plan.Compute(plan.Inputs{
		Config: cfg, State: st, Tools: m.toolMap(), Env: m.env, StoreDir: m.store.Dir,
		HubCommand: hubCmd, HubError: hubErr, Replace: replace, Destroy: f.destroy, Chronicle: version,
		Offline: f.offline, Resolver: a.resolver(), Progress: a.progress(), Context: a.ctx,
	})
	if f.offline {
		p.Diagnostics = append(p.Diagnostics, plan.Diagnostic{Severity: "warning", Summary: "Offline",
			Detail: "--offline: git skills were not checked against their remotes; the plan shows what is known locally."})
	}
	r := scan.Run(scan.Options{Env: m.env, Tools: m.tools, Config: cfg, Store: m.store, Owned: owned(st)})
	p.AddUnmanaged(r, p.Touched())
	for _, addr := range f.replace {
		if !planHas(p, addr) {
			p.Diagnostics = append(p.Diagnostics, plan.Diagnostic{Severity: "warning", Summary: "Nothing to replace at " + addr, Detail: "--replace " + addr + " matches no change of this plan."})
		}
	}
	return p
}

func planHas(p *plan.Plan, addr string) bool {
	for _, c := range p.Changes {
		if c.Address == addr {
			return true
		}
	}
	return false
}

// owned tells the scan which entries chronicle wrote, from the state.
func owned(st *state.State) func(provider.Location, provider.Entry) (bool, bool) {
	return func(loc provider.Location, e provider.Entry) (bool, bool) {
		for _, r := range st.Entries {
			if r.File == loc.File && r.Name == e.Name && strings.Join(r.KeyPath, "\x00") == strings.Join(loc.KeyPath, "\x00") {
				return true, plan.EntryHash(e) != r.Hash
			}
		}
		return false, false
	}
}

// hubCommand is the command line a tool runs to start the hub: the
// absolute path of chronicle on PATH, else of this binary, with --home when
// chronicle's folder is not the default.
func (a *app) hubCommand(m *machine) ([]string, string) {
	bin, err := exec.LookPath("chronicle")
	if err == nil {
		bin, err = filepath.Abs(bin)
	}
	if err != nil {
		if bin, err = os.Executable(); err != nil {
			return nil, "cannot find the chronicle binary: " + err.Error()
		}
	}
	if strings.Contains(bin, string(filepath.Separator)+"go-build") {
		return nil, "chronicle is running from the Go build cache (go run), a path that will not last; install it first (go install ./cmd/chronicle) so that tools can start chronicle serve --stdio"
	}
	args := []string{bin, "serve", "--stdio"}
	if m.chronicleHome != filepath.Join(m.home, ".chronicle") {
		args = append(args, "--home", m.chronicleHome)
	}
	return args, ""
}

// progress is where long work (git clones) reports progress: stderr, only
// on a terminal.
func (a *app) progress() io.Writer {
	if f, ok := a.stderr.(*os.File); ok && a.color(f) {
		return f
	}
	return nil
}
