package plan_test

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// leaveOutConfig: a token for github; Zed has no syntax for secret
// references, so tools = ["*"] leaves github out of it.
const leaveOutConfig = `
service "docs" { url = "https://docs.example.com/mcp" }
service "github" {
  command = "npx"
  env     = { GITHUB_PERSONAL_ACCESS_TOKEN = %s }
}
service "events" {
  url     = "https://events.example.com/sse"
  headers = { Authorization = secret("env:EVENTS_TOKEN") }
}
link "everywhere" {
  tools    = [%s]
  services = ["*"]
}
`

func leaveOut(secretValue, tools string) string {
	return strings.Replace(strings.Replace(leaveOutConfig, "%s", secretValue, 1), "%s", tools, 1)
}

func notes(p *plan.Plan, prefix string) []string {
	var out []string
	for _, d := range p.Diagnostics {
		if d.Severity == plan.SeverityNote && strings.HasPrefix(d.Summary, prefix) {
			out = append(out, d.Summary)
		}
	}
	return out
}

// TestStarLeavesOutWhatAToolCannotHold: under tools = ["*"], a service a
// tool cannot hold (a secret where it has no syntax for references) is left
// out of it with one note per tool naming the tool, each service and the
// hub; the other tools get it. An entry chronicle wrote before is removed,
// and the note says so. Naming the tool keeps the error.
func TestStarLeavesOutWhatAToolCannotHold(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".claude.json", "{}\n")
	m.Write(".config/zed/settings.json", "{}\n")

	// Before the token, every tool holds github.
	m.Converge(m.Config(leaveOut(`nonsensitive("plain")`, `"*"`)))
	if !strings.Contains(m.Read(m.Path(".config/zed/settings.json")), `"github"`) {
		t.Fatal("zed did not get github before the token")
	}

	cfg := m.Config(leaveOut(`secret("env:GITHUB_TOKEN")`, `"*"`))
	p := m.Plan(cfg)
	if errs := p.Errors(); len(errs) > 0 {
		t.Fatalf("errors: %+v", errs)
	}
	if c := enginetest.Change(t, p, `link.everywhere["zed"].service.github`); c.Action != plan.Delete {
		t.Errorf("zed's github: %s, want a removal", c.Action)
	}
	if c := enginetest.Change(t, p, `link.everywhere["claude"].service.github`); c.Action != plan.Update {
		t.Errorf("claude's github: %s, want an update", c.Action)
	}
	if p.Has(`link.everywhere["zed"].service.events`) {
		t.Errorf("zed got events:\n%s", enginetest.Describe(p))
	}
	got := notes(p, "zed leaves out")
	want := "zed leaves out events, github (no syntax for secret references); reach them through the hub: hub = true; the entry chronicle wrote earlier for github is removed"
	if len(got) != 1 || got[0] != want {
		t.Errorf("notes %q\nwant %q", got, want)
	}
	if len(notes(p, "claude leaves out")) != 0 {
		t.Errorf("claude holds them all:\n%s", enginetest.Describe(p))
	}
	m.Converge(cfg)
	if strings.Contains(m.Read(m.Path(".config/zed/settings.json")), `"github"`) {
		t.Error("zed's github entry is still there")
	}

	// Named, the tool keeps the error.
	p = m.Plan(m.Config(leaveOut(`secret("env:GITHUB_TOKEN")`, `"*", "zed"`)))
	if len(p.Errors()) == 0 || len(notes(p, "zed leaves out")) != 0 {
		t.Errorf("a named tool that cannot hold a service:\n%s", enginetest.Describe(p))
	}
}

// TestLinkWithoutTools: a tool list that is empty on this machine is a
// note, and the link writes nothing here.
func TestLinkWithoutTools(t *testing.T) {
	m := enginetest.New(t)
	p := m.Plan(m.Config(`
service "docs" { url = "https://docs.example.com/mcp" }
link "cursor-only" {
  tools    = [for t in machine.tools : t if t == "cursor"]
  services = ["docs"]
}
link "off" {
  when     = false
  tools    = []
  services = ["docs"]
}
`))
	if errs := p.Errors(); len(errs) > 0 {
		t.Fatalf("errors: %+v", errs)
	}
	if got := notes(p, "No tools for link"); len(got) != 1 || got[0] != "No tools for link cursor-only on this machine" {
		t.Errorf("notes %q:\n%s", got, enginetest.Describe(p))
	}
}

// TestLeaveOutReasons: the note says in a few words why each service is
// left out — a transport the tool lacks, references it cannot write, or
// anything else its Render refuses — grouped by reason.
func TestLeaveOutReasons(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".config/goose/config.yaml", "extensions: {}\n")
	p := m.Plan(m.Config(`
service "old-events" {
  url       = "https://events.example.com/sse"
  transport = "sse"
}
service "renamed" {
  command = "gh-mcp"
  env     = { TOKEN = secret("env:OTHER_TOKEN") }
}
service "in-dir" {
  command = "dir-mcp"
  cwd     = "/srv"
}
service "fine" { command = "fine-mcp" }
link "everywhere" {
  tools    = ["*"]
  services = ["*"]
  hub      = true
}
`))
	if errs := p.Errors(); len(errs) > 0 {
		t.Fatalf("errors: %+v", errs)
	}
	got := notes(p, "goose leaves out")
	want := "goose leaves out in-dir (cannot hold it as declared), old-events (no sse transport), renamed (cannot write its secret references); the hub entry (hub = true) reaches them"
	if len(got) != 1 || got[0] != want {
		t.Errorf("notes %q\nwant %q", got, want)
	}
	if c := enginetest.Change(t, p, `link.everywhere["goose"].service.fine`); c.Action != plan.Create {
		t.Errorf("goose's fine: %s", c.Action)
	}
}
