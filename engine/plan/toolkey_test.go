package plan_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// A key a tool adds to an entry chronicle wrote (Cline's autoApprove when
// the user clicks "Always allow") is the tool's: for every tool with a
// user-level MCP config, the next plan has no changes, an unrelated change
// to the declaration applies, and the key survives the rewrite (issue 27).
func TestToolAddsAKeyToChroniclesEntry(t *testing.T) {
	home := enginetest.New(t)
	var tools []provider.Provider
	for _, p := range home.Tools {
		if _, ok := userLocation(home, p); ok { // agents keeps skills only
			tools = append(tools, p)
		}
	}
	if len(tools) < 17 {
		t.Fatalf("%d tools keep a user-level MCP config, want the 17 chronicle writes entries to", len(tools))
	}
	for _, p := range tools {
		t.Run(p.Name(), func(t *testing.T) {
			m := enginetest.New(t)
			loc, _ := userLocation(m, p)
			decl := func(arg string) string {
				return fmt.Sprintf("service \"docs\" {\n  command = \"docs-mcp\"\n  args = [%q]\n}\nlink \"l\" {\n  tools = [%q]\n  services = [\"docs\"]\n}\n", arg, p.Name())
			}
			m.Converge(m.Config(decl("--v1")))

			// The tool writes a key of its own into chronicle's entry.
			toolAdds(t, p, loc, "docs", "toolAddedKey", "always")

			if got := m.Plan(m.Config(decl("--v1"))); len(got.Changes) != 0 {
				t.Fatalf("after the tool added a key, the plan is\n%s\nwant no changes", enginetest.Describe(got))
			}
			// An unrelated change to the declaration applies, and keeps
			// the tool's key.
			next := m.Plan(m.Config(decl("--v2")))
			addr := `link.l["` + p.Name() + `"].service.docs`
			if c := enginetest.Change(t, next, addr); c.Action != plan.Update {
				t.Fatalf("changed declaration: %s %q\n%s", c.Action, c.Reason, c.Diff)
			}
			m.Converge(m.Config(decl("--v2")))
			e := find(t, p, loc, "docs")
			if e.Extra["toolAddedKey"] != "always" {
				t.Fatalf("the tool's key after the rewrite: %#v", e.Extra)
			}
			if len(e.Definition.Args) != 1 || e.Definition.Args[0].String() != "--v2" {
				t.Fatalf("args after the rewrite: %v", e.Definition.Args)
			}
		})
	}
}

// userLocation returns the tool's user-level MCP config.
func userLocation(m *enginetest.Machine, p provider.Provider) (provider.Location, bool) {
	for _, loc := range p.Locations(m.Env) {
		if loc.Scope == provider.ScopeUser {
			return loc, true
		}
	}
	return provider.Location{}, false
}

// find reads the entry name from the tool's file.
func find(t *testing.T, p provider.Provider, loc provider.Location, name string) provider.Entry {
	t.Helper()
	e, _, err := toolfile.NewView(fsys.OS{}).Find(p, loc, name)
	if err != nil || e == nil {
		t.Fatalf("%s: %s: %v", loc.File, name, err)
	}
	return *e
}

// toolAdds adds key = value to the entry name as the tool would: in the
// tool's own format, every other byte kept.
func toolAdds(t *testing.T, p provider.Provider, loc provider.Location, name, key, value string) {
	t.Helper()
	e := find(t, p, loc, name)
	if e.Extra == nil {
		e.Extra = provider.Extra{}
	}
	e.Extra[key] = value
	data, err := os.ReadFile(loc.File)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := p.Parse(loc.File, data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := doc.Edit([]provider.Edit{{Location: loc, Name: name, Entry: &e}})
	if err != nil {
		t.Fatalf("%s cannot hold a key of its own: %v", p.Name(), err)
	}
	if err := os.WriteFile(loc.File, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A state of format 3 hashed an entry whole: read as format 4, an entry as
// chronicle wrote it, or one the tool has added a key to since, is not a
// drift, and a genuine edit still is.
func TestWholeHashRecordsUpgradeWithoutFalseDrift(t *testing.T) {
	m := enginetest.New(t)
	p := tool(t, m, "cline")
	loc, _ := userLocation(m, p)
	decl := m.Config("service \"docs\" {\n  command = \"docs-mcp\"\n}\nlink \"l\" {\n  tools = [\"cline\"]\n  services = [\"docs\"]\n}\n")
	m.Converge(decl)
	// As format 3 recorded it: the hash of the whole entry.
	st := m.State()
	e := find(t, p, loc, "docs")
	st.Entries[0].Hash, st.Entries[0].WholeHash = observe.EntryHash(e), true
	if err := st.Save(st.Path()); err != nil {
		t.Fatal(err)
	}
	if got := m.Plan(decl); len(got.Changes) != 0 {
		t.Fatalf("unchanged entry, whole hash:\n%s", enginetest.Describe(got))
	}
	toolAdds(t, p, loc, "docs", "autoApprove", "search")
	if got := m.Plan(decl); len(got.Changes) != 0 {
		t.Fatalf("a key the tool added, whole hash:\n%s", enginetest.Describe(got))
	}
	// A genuine edit of what chronicle owns is drift, with a diff.
	e = find(t, p, loc, "docs")
	e.Definition.Command = "edited-by-hand"
	data, _ := os.ReadFile(loc.File)
	doc, _ := p.Parse(loc.File, data)
	out, err := doc.Edit([]provider.Edit{{Location: loc, Name: "docs", Entry: &e}})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(loc.File, out, 0o600)
	c := enginetest.Change(t, m.Plan(decl), `link.l["cline"].service.docs`)
	if c.Action != plan.Conflict || c.Diff == "" || !strings.Contains(c.Diff, "edited-by-hand") {
		t.Fatalf("edited entry: %s %q\n%s", c.Action, c.Reason, c.Diff)
	}
}

func tool(t *testing.T, m *enginetest.Machine, name string) provider.Provider {
	for _, p := range m.Tools {
		if p.Name() == name {
			return p
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// An ignored address that nothing has (a typo in machine.hcl) is a warning
// naming it; one the configuration writes is not.
func TestIgnoreOfNothingWarns(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config("service \"docs\" {\n  url = \"https://docs.example.com/mcp\"\n}\nlink \"l\" {\n  tools = [\"cursor\"]\n  services = [\"docs\"]\n}\n")
	p := m.PlanWith(cfg, func(in *plan.Inputs) {
		in.Ignore = map[string]bool{`link.l["cursor"].service.docs`: true, `link.l["cursr"].service.docs`: true}
	})
	var warned []string
	for _, d := range p.Diagnostics {
		if strings.HasPrefix(d.Summary, "Nothing to ignore at ") {
			warned = append(warned, d.Address)
		}
	}
	if len(warned) != 1 || warned[0] != `link.l["cursr"].service.docs` {
		t.Fatalf("warnings for %v, want only the misspelt address", warned)
	}
	if c := enginetest.Change(t, p, `link.l["cursor"].service.docs`); c.Action != plan.Ignore {
		t.Fatalf("the ignored entry: %s %q", c.Action, c.Reason)
	}
}
