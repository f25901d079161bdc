package plan_test

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// TestOAuthServiceWrittenTheToolsWay: a service with an oauth block gets
// the tool's own OAuth fields; an extra the target gives under the same
// key is the user's and wins; a tool without OAuth gets a warning and no
// entry, and what chronicle wrote there before is removed.
func TestOAuthServiceWrittenTheToolsWay(t *testing.T) {
	m := enginetest.New(t)
	const base = `
service "linear" {
  url = "https://mcp.linear.example/mcp"
  oauth { client_id = "app-1" }
%s
}
link "direct" {
  tools    = ["claude", "cursor", "copilot"]
  services = ["linear"]
}
`
	// Before the oauth block, copilot holds linear.
	m.Converge(m.Config(strings.Replace(strings.Replace(base, "  oauth { client_id = \"app-1\" }\n", "", 1), "%s", "", 1)))
	if !strings.Contains(m.Read(m.Path(".copilot/mcp-config.json")), `"linear"`) {
		t.Fatal("copilot did not get linear before the oauth block")
	}
	targets := `  target "cursor" {
    extra = { auth = { CLIENT_ID = "mine" } }
  }`
	p := m.Plan(m.Config(strings.Replace(base, "%s", targets, 1)))
	var warned bool
	for _, d := range p.Diagnostics {
		if d.Severity == plan.SeverityError {
			t.Fatalf("error: %s: %s", d.Summary, d.Detail)
		}
		if d.Summary == "Use the hub for linear in copilot" {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning for copilot: %+v", p.Diagnostics)
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if got := m.Read(m.Path(".cursor/mcp.json")); !strings.Contains(got, `"CLIENT_ID": "mine"`) || strings.Contains(got, "app-1") {
		t.Errorf("cursor:\n%s", got)
	}
	if got := m.Read(m.Path(".claude.json")); !strings.Contains(got, `"clientId": "app-1"`) {
		t.Errorf("claude:\n%s", got)
	}
	if got := m.Read(m.Path(".copilot/mcp-config.json")); strings.Contains(got, `"linear"`) {
		t.Errorf("copilot kept linear:\n%s", got)
	}
}
