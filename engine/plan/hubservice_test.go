package plan_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

const perServiceServices = `
service "github" {
  command = "gh-mcp"
}
service "linear" {
  command = "linear-mcp"
}
`

// TestPerServiceHubEntries: hub = "per-service" gives each tool one entry
// per listed service, named as the service and running chronicle serve
// --stdio --service NAME, at link.L["tool"].hub.NAME; no direct entry and
// no aggregated hub entry. A service that leaves the list is removed, and
// a link going back to direct entries takes the same names over.
func TestPerServiceHubEntries(t *testing.T) {
	m := enginetest.New(t)
	link := func(services, hub string) string {
		return perServiceServices + "link \"l\" {\n  tools = [\"claude\"]\n  services = " + services + "\n  hub = " + hub + "\n}\n"
	}
	p := m.Converge(m.Config(link(`["github", "linear"]`, `"per-service"`)))
	for _, name := range []string{"github", "linear"} {
		c := enginetest.Change(t, p, `link.l["claude"].hub.`+name)
		if c.Action != plan.Create {
			t.Errorf("%s: %s %q", name, c.Action, c.Reason)
		}
		e := jsonEntry(t, m, ".claude.json", "mcpServers", name)
		want := append(slices.Clone(enginetest.HubCommand[1:]), "--service", name)
		if e["command"] != enginetest.HubCommand[0] || !slices.Equal(toStrings(e["args"]), want) {
			t.Errorf("the %s entry: %v", name, e)
		}
	}
	if got := enginetest.Describe(p); strings.Contains(got, ".service.") || strings.Contains(got, `["claude"].hub:`) {
		t.Errorf("a direct or aggregated entry planned:\n%s", got)
	}

	p = m.Converge(m.Config(link(`["github"]`, `"per-service"`)))
	if c := enginetest.Change(t, p, `link.l["claude"].hub.linear`); c.Action != plan.Delete {
		t.Errorf("linear left the list: %s %q", c.Action, c.Reason)
	}
	if doc := m.Read(m.Path(".claude.json")); strings.Contains(doc, "linear") {
		t.Errorf("linear still in ~/.claude.json:\n%s", doc)
	}
	jsonEntry(t, m, ".claude.json", "mcpServers", "github")

	m.Converge(m.Config(link(`["github"]`, "false")))
	if e := jsonEntry(t, m, ".claude.json", "mcpServers", "github"); e["command"] != "gh-mcp" {
		t.Errorf("back to a direct entry: %v", e)
	}
}

// TestPerServiceHubEntriesOverHTTP: with transport = "http" each entry
// points at the service's own endpoint, /mcp/service/NAME, with the hub's
// token header, as the aggregated HTTP entry does.
func TestPerServiceHubEntriesOverHTTP(t *testing.T) {
	m := enginetest.New(t)
	p := m.Plan(m.Config(perServiceServices + `
link "l" {
  tools     = ["cursor"]
  services  = ["github"]
  hub       = "per-service"
  transport = "http"
}
`))
	c := enginetest.Change(t, p, `link.l["cursor"].hub.github`)
	d := c.Entry.Entry.Definition
	if c.Entry.Entry.Name != "github" || d.URL.HCL() != "http://127.0.0.1:7311/mcp/service/github" || d.Headers["Authorization"].IsZero() {
		t.Errorf("the entry: %s %s %v", c.Entry.Entry.Name, d.URL.HCL(), d.Headers)
	}
}

// TestDirectAndHubEntryOfOneName: one link writing github into Claude
// directly and another through the hub is a plan error naming both.
func TestDirectAndHubEntryOfOneName(t *testing.T) {
	m := enginetest.New(t)
	p := m.Plan(m.Config(perServiceServices + `
link "direct" {
  tools    = ["claude"]
  services = ["github"]
}
link "viahub" {
  tools    = ["claude"]
  services = ["github"]
  hub      = "per-service"
}
`))
	want := `link.direct["claude"].service.github and link.viahub["claude"].hub.github both write the entry "github"`
	if got := enginetest.Describe(p); len(p.Errors()) == 0 || !strings.Contains(got, want) {
		t.Errorf("want an error %q, got:\n%s", want, got)
	}
}

// TestPerServiceHubEntryOfADisabledService: the hub does not serve a
// service its policy disables, so it gets no entry, and the one written
// while it was enabled is removed.
func TestPerServiceHubEntryOfADisabledService(t *testing.T) {
	m := enginetest.New(t)
	const link = perServiceServices + "link \"l\" {\n  tools = [\"claude\"]\n  services = [\"github\", \"linear\"]\n  hub = \"per-service\"\n}\n"
	m.Converge(m.Config(link))
	p := m.Converge(m.Config(link + "policy \"linear\" {\n  enabled = false\n}\n"))
	if c := enginetest.Change(t, p, `link.l["claude"].hub.linear`); c.Action != plan.Delete {
		t.Errorf("the disabled service's entry: %s %q", c.Action, c.Reason)
	}
	if doc := m.Read(m.Path(".claude.json")); strings.Contains(doc, `"linear"`) {
		t.Errorf("linear still in ~/.claude.json:\n%s", doc)
	}
}
