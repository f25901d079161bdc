package plan_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// whenConfig declares a work-only service that a link to two tools names;
// work says whether this machine is the work laptop.
func whenConfig(work bool) string {
	return fmt.Sprintf(`
service "work-db" {
  when    = %t
  command = "db-mcp"
}
service "notes" {
  command = "notes-mcp"
}
link "all" {
  tools    = ["cursor", "claude"]
  services = ["work-db", "notes"]
}
`, work)
}

// TestAbsentReferenceNote: a link naming a service whose when is false
// writes nothing for it, with one warning for the link (not one per tool);
// what was applied while it existed is removed through the plan.
func TestAbsentReferenceNote(t *testing.T) {
	m := enginetest.New(t)
	m.Converge(m.Config(whenConfig(true)))
	if !strings.Contains(m.Read(m.Path(cursorFile)), `"work-db"`) {
		t.Fatal("the work service was not written while present")
	}

	p := m.Plan(m.Config(whenConfig(false)))
	if errs := p.Errors(); len(errs) > 0 {
		t.Fatalf("errors: %s", enginetest.Describe(p))
	}
	var notes []plan.Diagnostic
	for _, d := range p.Diagnostics {
		if strings.Contains(d.Summary, "service.work-db") {
			notes = append(notes, d)
		}
	}
	if len(notes) != 1 || notes[0].Severity != plan.SeverityNote || notes[0].Address != "link.all" ||
		notes[0].Summary != "Absent on this machine: service.work-db" || !strings.Contains(notes[0].Detail, "whose when is false on this machine") {
		t.Fatalf("notes %+v, want one warning at link.all", notes)
	}
	for _, addr := range []string{`link.all["cursor"].service.work-db`, `link.all["claude"].service.work-db`, "service.work-db"} {
		if c := enginetest.Change(t, p, addr); c.Action != plan.Delete {
			t.Fatalf("%s: %s, want a removal", addr, c.Action)
		}
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if got := m.Read(m.Path(cursorFile)); strings.Contains(got, "work-db") || !strings.Contains(got, "notes") {
		t.Fatalf("cursor after apply: %s", got)
	}
	if again := m.Plan(m.Config(whenConfig(false))); again.HasChanges() || !strings.Contains(enginetest.Describe(again), "Absent on this machine: service.work-db") {
		t.Fatalf("second plan: %s", enginetest.Describe(again))
	}
}

// TestAbsentEverythingIsNotTheWrongDirectory: a configuration whose every
// block is absent here removes what was applied while they existed; it is
// not refused as an empty configuration would be.
func TestAbsentEverythingIsNotTheWrongDirectory(t *testing.T) {
	m := enginetest.New(t)
	src := `
service "s" {
  when    = %t
  command = "x"
}
link "l" {
  when     = %t
  tools    = ["cursor"]
  services = ["s"]
}
`
	m.Converge(m.Config(fmt.Sprintf(src, true, true)))
	p := m.Plan(m.Config(fmt.Sprintf(src, false, false)))
	if errs := p.Errors(); len(errs) > 0 {
		t.Fatalf("refused: %s", enginetest.Describe(p))
	}
	if c := enginetest.Change(t, p, `link.l["cursor"].service.s`); c.Action != plan.Delete {
		t.Fatalf("entry: %s", c.Action)
	}
}

const fiveBlocks = `
service "gh-acme" {
  command = "gh-mcp"
  args    = ["--org", "acme"]
}
service "gh-globex" {
  command = "gh-mcp"
  args    = ["--org", "globex"]
}
link "orgs-acme" {
  tools    = ["cursor"]
  services = ["gh-acme"]
}
link "orgs-globex" {
  tools    = ["cursor"]
  services = ["gh-globex"]
}
`

const forEachBlocks = `
locals {
  orgs = toset(["acme", "globex"])
}
service "gh" {
  for_each = local.orgs
  command  = "gh-mcp"
  args     = ["--org", each.key]
}
link "orgs" {
  for_each = local.orgs
  tools    = ["cursor"]
  services = ["gh-${each.key}"]
}
`

// TestForEachIsOrdinaryBlocks: instances are planned as the blocks they
// stand for (turning blocks into a for_each changes nothing), and each
// change says where its instance comes from, in a saved plan too.
func TestForEachIsOrdinaryBlocks(t *testing.T) {
	m := enginetest.New(t)
	first := m.Plan(m.Config(forEachBlocks))
	want := map[string]string{
		"service.gh-acme":                              `service.gh["acme"]`,
		`link.orgs-acme["cursor"].service.gh-acme`:     `link.orgs["acme"]`,
		`link.orgs-globex["cursor"].service.gh-globex`: `link.orgs["globex"]`,
	}
	saved := m.Saved(first)
	for addr, from := range want {
		if c := enginetest.Change(t, first, addr); c.From != from || c.Action != plan.Create {
			t.Errorf("%s: %s from %q, want a create from %q", addr, c.Action, c.From, from)
		}
		if c := enginetest.Change(t, saved, addr); c.From != from {
			t.Errorf("saved %s: from %q", addr, c.From)
		}
	}
	if b, _ := json.Marshal(enginetest.Change(t, first, "service.gh-acme")); !strings.Contains(string(b), `"from":"service.gh[\"acme\"]"`) {
		t.Errorf("JSON: %s", b)
	}

	m.Converge(m.Config(fiveBlocks))
	if p := m.Plan(m.Config(forEachBlocks)); p.HasChanges() {
		t.Fatalf("the same blocks as a for_each: %s", enginetest.Describe(p))
	}
	// A key removed: its instance is removed, the others are unchanged.
	p := m.Plan(m.Config(strings.Replace(forEachBlocks, `"acme", "globex"`, `"globex"`, 1)))
	var changed []string
	for _, c := range p.Changes {
		changed = append(changed, c.Action.Symbol()+" "+c.Address)
	}
	if got := strings.Join(changed, ", "); got != `- link.orgs-acme["cursor"].service.gh-acme, - service.gh-acme` {
		t.Fatalf("a key removed: %s", got)
	}
}
