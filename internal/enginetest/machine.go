package enginetest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/apply"
	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/machine"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/providers"
)

// A Machine is a temporary home with chronicle's folder and the real
// providers.
type Machine struct {
	T         testing.TB
	Home      string // $HOME
	Chronicle string // ~/.chronicle
	Store     string // ~/.chronicle/skills
	ConfigDir string // where Config writes chronicle.hcl
	Tools     []provider.Provider
	Env       provider.Env
	// System is what Apply changes the machine through; the real
	// filesystem unless a test puts a Recorder here.
	System fsys.System
	// Destroy lets a plan remove everything chronicle manages.
	Destroy bool
	// Online lets a plan reach git remotes; plans are offline otherwise.
	Online bool
	// Catalog is the catalogue cache plans read (Plan.Context); nil for none.
	Catalog *catalog.File
}

// New makes a Machine under a temporary directory and points HOME at it.
func New(t testing.TB) *Machine {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	for _, d := range []string{home, filepath.Join(root, "config")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	ch := filepath.Join(home, ".chronicle")
	return &Machine{
		T: t, Home: home, Chronicle: ch, Store: filepath.Join(ch, "skills"),
		ConfigDir: filepath.Join(root, "config"), Tools: providers.All(nil),
		Env:    provider.Env{Home: home, Getenv: func(string) (string, bool) { return "", false }},
		System: fsys.OS{},
	}
}

// Path returns a path under the home: Path(".cursor/mcp.json").
func (m *Machine) Path(rel string) string { return filepath.Join(m.Home, filepath.FromSlash(rel)) }

// Write writes a file under the home (mode 0644), making its folders.
func (m *Machine) Write(rel, content string) string {
	m.T.Helper()
	p := m.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		m.T.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		m.T.Fatal(err)
	}
	return p
}

// Read returns a file's content ("" when it does not exist).
func (m *Machine) Read(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// Skill makes a skill folder named name under dir (absolute or relative to
// the configuration directory) with a SKILL.md whose body is body.
func (m *Machine) Skill(dir, name, body string) string {
	m.T.Helper()
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(m.ConfigDir, dir)
	}
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		m.T.Fatal(err)
	}
	md := "---\nname: " + name + "\ndescription: " + name + " for tests\n---\n" + body + "\n"
	if err := os.WriteFile(filepath.Join(p, "SKILL.md"), []byte(md), 0o644); err != nil {
		m.T.Fatal(err)
	}
	return p
}

// Config writes text as chronicle.hcl in the configuration directory and
// loads it; errors fail the test.
func (m *Machine) Config(text string) *config.Config {
	m.T.Helper()
	if err := os.WriteFile(filepath.Join(m.ConfigDir, "chronicle.hcl"), []byte(text), 0o644); err != nil {
		m.T.Fatal(err)
	}
	// The tools present, as cmd gathers them (machine.tools, tools = ["*"]):
	// through m.Env, whose PATH is empty unless a test sets one.
	facts := machine.Facts{Home: m.Home, Tools: providers.PresentNames(fsys.OS{}, m.Env, providers.All(nil))}
	present := func(t *config.Tool) bool { return providers.PresentTool(fsys.OS{}, m.Env, t) }
	cfg, _, diags := config.Load(m.ConfigDir, config.Options{Home: m.Home, KnownTools: providers.Names(), Machine: facts, Present: present})
	if diags.HasErrors() {
		m.T.Fatalf("configuration: %s", diags.Error())
	}
	return cfg
}

// State loads the state.
func (m *Machine) State() *state.State {
	m.T.Helper()
	st, err := state.Load(filepath.Join(m.Chronicle, "state.json"))
	if err != nil {
		m.T.Fatal(err)
	}
	return st
}

// HubCommand is the hub entry's command line in tests.
var HubCommand = []string{"/usr/local/bin/chronicle", "serve", "--stdio"}

// Plan plans cfg against the state on disk, reading through a Recorder so
// the test can check that planning wrote nothing. replace lists --replace
// addresses.
func (m *Machine) Plan(cfg *config.Config, replace ...string) *plan.Plan {
	m.T.Helper()
	r := map[string]bool{}
	for _, a := range replace {
		r[a] = true
	}
	return m.PlanWith(cfg, func(in *plan.Inputs) { in.Replace = r })
}

// PlanWith plans like Plan, with set changing the inputs first.
func (m *Machine) PlanWith(cfg *config.Config, set func(*plan.Inputs)) *plan.Plan {
	m.T.Helper()
	rec := &fsys.Recorder{System: fsys.OS{}}
	in := plan.Inputs{
		Lists: providers.Lists{}, OAuth: providers.OAuth,
		Config: cfg, State: m.State(), Tools: m.Tools, Env: m.Env, StoreDir: m.Store,
		HubCommand: HubCommand, Destroy: m.Destroy, Chronicle: "test", Reader: fsys.ReadOnly(rec),
		Scratch: fsys.OS{}, EUID: os.Geteuid(), Offline: !m.Online, Catalog: m.Catalog,
	}
	set(&in)
	p := plan.Compute(in)
	if w := rec.Writes(); len(w) > 0 {
		m.T.Fatalf("planning wrote to the machine: %+v", w)
	}
	return p
}

// Saved returns p after saving it to a file and loading it back, as
// apply PLANFILE does.
func (m *Machine) Saved(p *plan.Plan) *plan.Plan {
	m.T.Helper()
	path := filepath.Join(m.T.TempDir(), "saved.plan")
	if err := p.Save(fsys.OS{}, path); err != nil {
		m.T.Fatal(err)
	}
	q, err := plan.Load(fsys.OS{}, path)
	if err != nil {
		m.T.Fatal(err)
	}
	return q
}

// Apply applies p against the state on disk through m.System.
func (m *Machine) Apply(p *plan.Plan) (*apply.Result, error) {
	m.T.Helper()
	st := m.State()
	if st.IsNew() && p.Serial == 0 {
		st.Lineage = p.Lineage
	}
	return apply.Apply(p, apply.Options{
		Lists: providers.Lists{},
		State: st, Tools: m.Tools, System: m.System, ChronicleHome: m.Chronicle, StoreDir: m.Store,
		SnapshotDir: filepath.Join(m.Chronicle, "snapshots"), ConfigDir: m.ConfigDir, Version: "test",
		Now: time.Now, SkipConflicts: true,
	})
}

// Converge plans and applies cfg, failing the test on any error, conflict
// or failure, and returns the plan it applied.
func (m *Machine) Converge(cfg *config.Config, replace ...string) *plan.Plan {
	m.T.Helper()
	p := m.Plan(cfg, replace...)
	if errs := p.Errors(); len(errs) > 0 {
		m.T.Fatalf("plan errors: %+v", errs)
	}
	if c := p.Conflicts(); len(c) > 0 {
		m.T.Fatalf("plan conflicts: %+v", c)
	}
	if _, err := m.Apply(p); err != nil {
		m.T.Fatalf("apply: %v", err)
	}
	if again := m.Plan(cfg); again.HasChanges() {
		m.T.Fatalf("a second plan right after apply is not empty: %s", Describe(again))
	}
	return p
}

// Describe lists a plan's changes and diagnostics, one per line.
func Describe(p *plan.Plan) string {
	var b strings.Builder
	for _, c := range p.Changes {
		b.WriteString(c.Action.Symbol() + " " + c.Address + ": " + c.Reason + "\n")
	}
	for _, d := range p.Diagnostics {
		b.WriteString(d.Severity + " " + d.Address + ": " + d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

// Change returns the plan's change at addr, failing the test when there is
// none.
func Change(t testing.TB, p *plan.Plan, addr string) plan.Change {
	t.Helper()
	for _, c := range p.Changes {
		if c.Address == addr {
			return c
		}
	}
	t.Fatalf("no change at %s in:\n%s", addr, Describe(p))
	return plan.Change{}
}

// Snapshot reads every file under dir (recursively) into a map, to check a
// place was left untouched.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		info, _ := os.Lstat(p)
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			t, _ := os.Readlink(p)
			out[rel] = "-> " + t
		case !d.IsDir():
			b, _ := os.ReadFile(p)
			out[rel] = string(b)
		}
		return nil
	})
	return out
}

// Equal reports whether two snapshots are the same.
func Equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !bytes.Equal([]byte(v), []byte(w)) {
			return false
		}
	}
	return true
}
