package main

import (
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hashcache"
	"github.com/chronicle-dev/chronicle/engine/lock"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/providers"
	"github.com/chronicle-dev/chronicle/providers/claude"
)

// A workspace is what chronicle looks at on this machine: the home, the
// projects, the tools, and chronicle's own folder. (The machine's facts,
// machine.* in the configuration, are engine/machine's.)
type workspace struct {
	home          string
	chronicleHome string
	env           provider.Env
	tools         []provider.Provider
	store         skills.Store
	// hashes is the skill hash cache, loaded by the first plan of the
	// command (compute).
	hashes *hashcache.Cache
}

// workspace gathers the workspace for cfg (nil when there is no configuration).
// Projects scanned: the working directory, chronicle { projects }, and the
// projects Claude Code knows (the keys of ~/.claude.json's projects).
func (a *app) workspace(cfg *config.Config) (*workspace, error) {
	home, err := a.userHome()
	if err != nil {
		return nil, err
	}
	ch, err := a.chronicleHome()
	if err != nil {
		return nil, err
	}
	var projects []string
	if wd, err := os.Getwd(); err == nil && wd != home {
		projects = append(projects, wd)
	}
	var tools []*config.Tool
	if cfg != nil {
		projects = append(projects, cfg.Projects...)
		tools = cfg.Tools
	}
	projects = append(projects, claudeProjects(home)...)
	m := &workspace{
		home:          home,
		chronicleHome: ch,
		env:           provider.Env{Home: home, Projects: unique(projects), Getenv: os.LookupEnv},
		tools:         providers.All(tools),
		store:         skills.Store{Dir: filepath.Join(ch, "skills")},
	}
	return m, nil
}

// scan runs a scan of the selected tools against cfg and the state (nil
// when there is none).
func (m *workspace) scan(cfg *config.Config, st *state.State, only []string) scan.Result {
	// The catalogue cache only informs (what a hub entry shows): one that
	// cannot be read counts as none.
	cat, _ := catalog.Load(catalog.Path(m.chronicleHome))
	return scan.Run(scan.Options{Env: m.env, Tools: m.tools, Only: only, Config: cfg, Store: m.store, State: st, Catalog: cat,
		Successions: providers.Successions(fsys.OS{}, m.env, m.tools)})
}

// claudeProjects returns the project folders Claude Code keeps entries for
// that exist on this machine: every tool's project files are looked for in
// them, and a folder that is not here holds none (a heavy user's file
// remembers thousands, many long gone). The claude provider still lists
// the local servers ~/.claude.json keeps for every one (claude.KnownProjects).
func claudeProjects(home string) []string {
	var out []string
	for _, p := range claude.KnownProjects(filepath.Join(home, ".claude.json")) {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			out = append(out, filepath.Clean(p))
		}
	}
	return out
}

func unique(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// allToolNames returns the built-in tool names and those of tool blocks.
func allToolNames(cfg *config.Config) []string {
	names := providers.Names()
	if cfg != nil {
		for _, t := range cfg.Tools {
			names = append(names, t.Name)
		}
	}
	return names
}

// relUnder returns p relative to dir when p is inside dir.
func relUnder(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// locked runs fn on the machine while holding the state lock, as every
// command that changes chronicle's own files does (docs/locks.md).
func (a *app) locked(op string, timeout time.Duration, fn func(m *workspace) error) error {
	m, err := a.workspace(nil)
	if err != nil {
		return err
	}
	l, err := a.lockState(m, op, timeout)
	if err != nil {
		return err
	}
	defer l.Release()
	return fn(m)
}

// lockTimeoutFlag adds --lock-timeout to a command that takes the state
// lock: the lock's "retry with --lock-timeout" hint (engine/lock) then holds
// for every command that can meet a held lock.
func lockTimeoutFlag(cmd *cobra.Command, d *time.Duration) {
	cmd.Flags().DurationVar(d, "lock-timeout", 0, "wait this long for another apply or sync to finish (e.g. 30s)")
}

// lockState takes the state lock (~/.chronicle/state.lock) for op, waiting
// up to timeout for another holder; Ctrl-C ends the wait.
func (a *app) lockState(m *workspace, op string, timeout time.Duration) (*lock.Lock, error) {
	if err := (fsys.OS{}).MkdirAll(m.chronicleHome, 0o700); err != nil {
		return nil, err
	}
	l, err := lock.Acquire(a.ctx, filepath.Join(m.chronicleHome, "state.lock"), op, timeout)
	if err != nil {
		return nil, failf("%s", err)
	}
	// A run killed while saving the state leaves its temporary file; the
	// lock now held says that run is over.
	state.RemoveStale(fsys.OS{}, m.statePath(), time.Now())
	return l, nil
}

// loadedState returns the machine and its state, for commands that only read.
func (a *app) loadedState() (*workspace, *state.State, error) {
	m, err := a.workspace(nil)
	if err != nil {
		return nil, nil, err
	}
	st, err := m.loadState()
	return m, st, err
}
