package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// devinDeny declares a service whose policy denies one tool, linked to
// tools in a project; target, when set, is the body of a target "devin"
// block.
func devinDeny(project, tools, target string) string {
	text := `service "db" {
  command = "db-mcp"
`
	if target != "" {
		text += "  target \"devin\" {\n    " + target + "\n  }\n"
	}
	return text + `}
policy "db" {
  disabled_tools = ["drop_table"]
}
link "p" {
  tools    = [` + tools + `]
  project  = "` + project + `"
  services = ["db"]
}
`
}

// Devin CLI denies MCP tools with permissions deny rules in its
// config*.json, which chronicle does not write (decision 0151): a policy's
// deny list applies to Devin only through the hub (a warning; the entry is
// written without it, never as disabledTools), a target "devin" block's own
// deny list is refused for Devin when the link names it and left out with
// a note under tools = ["*"]. The user's config.json (permissions and all,
// as the vendor's page shows it) is never touched.
func TestDevinDenyListsAreNotWrittenAsDisabledTools(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	legacy, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "devin", "legacy", "project", ".devin", "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	m.Write("work/api/.devin/config.json", string(legacy))
	m.Write(".config/devin/mcp_config.json", "{}\n") // devin is present
	before := enginetest.Snapshot(t, m.Path("work/api/.devin"))

	p := m.Converge(m.Config(devinDeny(project, `"devin"`, "")))
	warned := false
	for _, d := range p.Diagnostics {
		warned = warned || (d.Summary == "Policy not enforced by devin" && strings.Contains(d.Detail, "permissions deny rules mcp__SERVER__TOOL"))
	}
	got := m.Read(m.Path("work/api/.devin/mcp_config.json"))
	if !warned || !strings.Contains(got, `"db-mcp"`) || strings.Contains(got, "disabledTools") || strings.Contains(got, "drop_table") {
		t.Fatalf("policy: want a warning and the entry without a deny list:\n%s\n%s", got, enginetest.Describe(p))
	}
	after := enginetest.Snapshot(t, m.Path("work/api/.devin"))
	delete(after, "mcp_config.json")
	if !enginetest.Equal(before, after) {
		t.Fatalf("the user's config.json changed:\n%v\n%v", before, after)
	}

	own := `disabled_tools = ["drop_table"]`
	p = m.Plan(m.Config(devinDeny(project, `"devin"`, own)))
	if errs := p.Errors(); len(errs) != 1 || !strings.Contains(errs[0].Detail, "permissions deny rules mcp__SERVER__TOOL") {
		t.Fatalf("a target's deny list, devin named: want the refusal as an error:\n%s", enginetest.Describe(p))
	}
	p = m.Plan(m.Config(devinDeny(project, `"*"`, own)))
	if len(p.Errors()) != 0 || len(notes(p, "devin leaves out db (no tool deny list)")) != 1 {
		t.Fatalf(`a target's deny list, tools = ["*"]: want db left out of devin with a note:`+"\n%s", enginetest.Describe(p))
	}
	if c := enginetest.Change(t, p, `link.p["devin"].service.db`); c.Action != plan.Delete {
		t.Fatalf("the entry written before is not removed: %+v", c)
	}
}
