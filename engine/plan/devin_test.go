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
// config*.json (decision 0151): a policy's deny list is written there, one
// rule mcp__SERVER__TOOL per tool, into the file matching the entry's
// mcp_config*.json, never as disabledTools; the user's rules and comments
// stay byte for byte. A rule the user removed is written again, and shown;
// a rule no longer wanted goes, and only chronicle's. A glob stays the
// hub's (a warning). A target "devin" block's own deny list is refused
// for Devin when the link names it and left out with a note under
// tools = ["*"].
func TestDevinDenyListsAreWrittenAsPermissionRules(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	user, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "devin", "permissions", "project", ".devin", "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	m.Write("work/api/.devin/config.json", string(user))
	m.Write(".config/devin/mcp_config.json", "{}\n") // devin is present
	configJSON := m.Path("work/api/.devin/config.json")

	p := m.Converge(m.Config(devinDeny(project, `"devin"`, "")))
	rule := enginetest.Change(t, p, `link.p["devin"].service.db.deny["drop_table"]`)
	if rule.Kind != plan.KindRule || rule.Action != plan.Create || rule.Path != configJSON {
		t.Fatalf("want the deny rule created in config.json: %+v\n%s", rule, enginetest.Describe(p))
	}
	for _, d := range p.Diagnostics {
		if d.Summary == "Policy not enforced by devin" {
			t.Fatalf("the deny list is enforced by the rule: %+v", d)
		}
	}
	got := m.Read(m.Path("work/api/.devin/mcp_config.json"))
	if !strings.Contains(got, `"db-mcp"`) || strings.Contains(got, "disabledTools") || strings.Contains(got, "drop_table") {
		t.Fatalf("want the entry without a deny list:\n%s", got)
	}
	want := strings.Replace(string(user), "      \"Read(**/*.pem)\",\n", "      \"Read(**/*.pem)\",\n      \"mcp__db__drop_table\",\n", 1)
	if got := m.Read(configJSON); got != want {
		t.Fatalf("config.json: want the user's file with one rule added:\n%s\ngot:\n%s", want, got)
	}
	if r := m.State().RuleAt(configJSON, []string{"permissions", "deny"}, "mcp__db__drop_table"); r == nil || r.Address != rule.Address {
		t.Fatalf("the rule is not recorded: %+v", m.State().Rules)
	}

	// The user removes the rule by hand: the plan writes it again, and says so.
	m.Write("work/api/.devin/config.json", string(user))
	p = m.Plan(m.Config(devinDeny(project, `"devin"`, "")))
	if c := enginetest.Change(t, p, rule.Address); c.Action != plan.Create || !strings.Contains(c.Reason, "removed since chronicle wrote it") {
		t.Fatalf("a rule removed by hand: want it written again, shown: %+v", c)
	}
	m.Converge(m.Config(devinDeny(project, `"devin"`, "")))

	// The user adds a rule of their own; the policy goes: only chronicle's
	// rule is removed.
	withOwn := strings.Replace(m.Read(configJSON), `"ask": ["Fetch(*)"]`, `"ask": ["Fetch(*)", "mcp__db__drop_table"]`, 1)
	m.Write("work/api/.devin/config.json", withOwn)
	noPolicy := strings.Replace(devinDeny(project, `"devin"`, ""), "disabled_tools = [\"drop_table\"]", "", 1)
	p = m.Converge(m.Config(noPolicy))
	if c := enginetest.Change(t, p, rule.Address); c.Action != plan.Delete {
		t.Fatalf("no longer declared: want the rule removed: %+v", c)
	}
	if got, want := m.Read(configJSON), strings.Replace(string(user), `"ask": ["Fetch(*)"]`, `"ask": ["Fetch(*)", "mcp__db__drop_table"]`, 1); got != want {
		t.Fatalf("config.json: want the user's file back, their rules kept:\n%s\ngot:\n%s", want, got)
	}
	if len(m.State().Rules) != 0 {
		t.Fatalf("the rule is still recorded: %+v", m.State().Rules)
	}

	// A glob is no rule chronicle writes: the hub's, with a warning.
	glob := strings.Replace(devinDeny(project, `"devin"`, ""), `["drop_table"]`, `["drop_*", "truncate"]`, 1)
	p = m.Plan(m.Config(glob))
	warned := false
	for _, d := range p.Diagnostics {
		warned = warned || (d.Summary == "Policy not enforced by devin" && strings.Contains(d.Detail, "drop_*"))
	}
	if c := enginetest.Change(t, p, `link.p["devin"].service.db.deny["truncate"]`); !warned || c.Action != plan.Create {
		t.Fatalf("a glob: want a warning and the named tool's rule:\n%s", enginetest.Describe(p))
	}
	for _, c := range p.Changes {
		if strings.Contains(c.Address, "drop_") {
			t.Fatalf("a rule for a glob: %+v", c)
		}
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

// A deny rule the user already has, identical, is not chronicle's: a
// conflict, which import takes over as it is (the file untouched); from
// then on it is chronicle's, removed with the policy.
func TestDevinUsersOwnDenyRuleIsImported(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write(".config/devin/mcp_config.json", "{}\n")
	mine := "{\"permissions\": {\"deny\": [\"mcp__db__drop_table\"]}}\n"
	configJSON := m.Write("work/api/.devin/config.json", mine)
	addr := `link.p["devin"].service.db.deny["drop_table"]`
	cfg := m.Config(devinDeny(project, `"devin"`, ""))
	if c := enginetest.Change(t, m.Plan(cfg), addr); c.Action != plan.Conflict || !strings.Contains(c.Reason, "chronicle import") {
		t.Fatalf("the user's own rule: want a conflict naming import: %+v", c)
	}
	p := m.PlanWith(cfg, func(in *plan.Inputs) { in.Import = map[string]bool{addr: true} })
	if c := enginetest.Change(t, p, addr); c.Action != plan.Update || c.Rule == nil || !c.Rule.RecordOnly {
		t.Fatalf("import: want the rule recorded as it is: %+v", c)
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if got := m.Read(configJSON); got != mine {
		t.Fatalf("import rewrote config.json:\n%s", got)
	}
	if m.Plan(cfg).HasChanges() {
		t.Fatal("a plan after the import is not empty")
	}
}
