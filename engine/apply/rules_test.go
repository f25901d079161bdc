package apply_test

import (
	"os"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// devinPolicy declares a service whose policy denies two tools (none when
// deny is false), linked to Devin CLI in project.
func devinPolicy(project string, deny bool) string {
	text := "service \"db\" {\n  command = \"db-mcp\"\n}\n"
	if deny {
		text += "policy \"db\" {\n  disabled_tools = [\"drop_table\", \"truncate\"]\n}\n"
	}
	return text + "link \"p\" {\n  tools    = [\"devin\"]\n  project  = \"" + project + "\"\n  services = [\"db\"]\n}\n"
}

const devinUserConfig = "{\n  // mine\n  \"permissions\": {\n    \"deny\": [\"Exec(sudo)\"]\n  }\n}\n"

// installs records the files apply installs, in order.
func installs(m *enginetest.Machine, before func(path string, n int) error) *[]string {
	var order []string
	m.System = &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		if op.Name != "Install" {
			return nil
		}
		order = append(order, op.Path)
		if before != nil {
			return before(op.Path, len(order))
		}
		return nil
	}}
	return &order
}

// The rules denying a server's tools are written before its entry, in one
// install of config.json, and removed after it: the server is never
// callable without them.
func TestDenyRulesBeforeTheEntryAndRemovedAfter(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write(".config/devin/mcp_config.json", "{}\n")
	rules := m.Write("work/api/.devin/config.json", devinUserConfig)
	entries := m.Path("work/api/.devin/mcp_config.json")
	order := installs(m, nil)
	m.Converge(m.Config(devinPolicy(project, true)))
	if got := strings.Join(*order, " "); got != rules+" "+entries {
		t.Fatalf("installs: %s", got)
	}
	if got := m.Read(rules); !strings.Contains(got, "// mine") || !strings.Contains(got, `"mcp__db__drop_table"`) || !strings.Contains(got, `"mcp__db__truncate"`) {
		t.Fatalf("config.json:\n%s", got)
	}
	*order = nil
	m.Converge(m.Config(strings.Replace(devinPolicy(project, true), "services = [\"db\"]", "services = []", 1)))
	if got := strings.Join(*order, " "); got != entries+" "+rules {
		t.Fatalf("installs on removal: %s", got)
	}
	if got := m.Read(rules); got != devinUserConfig {
		t.Fatalf("config.json is not the user's again:\n%s", got)
	}
}

// A rule that cannot be written skips its entry: the server is not written
// without it. The list's other changes are made, each on its own.
func TestFailedDenyRuleSkipsItsEntry(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write(".config/devin/mcp_config.json", "{}\n")
	m.Write("work/api/.devin/config.json", devinUserConfig)
	p := m.Plan(m.Config(devinPolicy(project, true)))
	// The user denies one of the tools by hand after the plan.
	m.Write("work/api/.devin/config.json", strings.Replace(devinUserConfig, `"Exec(sudo)"`, `"Exec(sudo)", "mcp__db__truncate"`, 1))
	r, err := m.Apply(p)
	if err == nil {
		t.Fatal("apply succeeded")
	}
	failed := map[string]string{}
	for _, f := range r.Failed {
		failed[f.Change.Address] = f.Err.Error()
	}
	if !strings.Contains(failed[`link.p["devin"].service.db.deny["truncate"]`], "changed since the plan") ||
		!strings.Contains(failed[`link.p["devin"].service.db`], "skipped") {
		t.Fatalf("failed: %v", failed)
	}
	if _, err := os.Stat(m.Path("work/api/.devin/mcp_config.json")); !os.IsNotExist(err) {
		t.Fatalf("the entry was written without its rule: %v", err)
	}
	// The other rule stands alone and is written; the user's rule is never
	// recorded as chronicle's.
	st := m.State()
	if len(st.Rules) != 1 || st.Rules[0].Rule != "mcp__db__drop_table" {
		t.Fatalf("recorded: %+v", st.Rules)
	}
}

// Devin writing config.json between chronicle's read and install: its
// version is edited again, nothing it wrote is lost.
func TestDenyRulesEditedAgainOverDevinsWrite(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write(".config/devin/mcp_config.json", "{}\n")
	rules := m.Write("work/api/.devin/config.json", devinUserConfig)
	p := m.Plan(m.Config(devinPolicy(project, true)))
	devins := strings.Replace(devinUserConfig, `"Exec(sudo)"`, `"Exec(sudo)", "Read(**/*.pem)"`, 1)
	installs(m, func(path string, n int) error {
		if path == rules && n == 1 {
			return os.WriteFile(rules, []byte(devins), 0o644)
		}
		return nil
	})
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	got := m.Read(rules)
	if !strings.Contains(got, `"Read(**/*.pem)"`) || !strings.Contains(got, `"mcp__db__drop_table"`) || !strings.Contains(got, "// mine") {
		t.Fatalf("config.json:\n%s", got)
	}
}
