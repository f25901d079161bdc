package plan_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// perTool declares one service with its own values for some tools.
const perTool = `
service "docs" {
  command = "npx"
  args    = ["-y", "docs-mcp"]
  timeout = "30s"

  target "cursor" {
    args = ["-y", "docs-mcp", "--context=ide"]
  }
  target "opencode" {
    timeout = "10s"
    extra   = { oauth = false, retries = 2 }
  }
  target "codex" {
    timeout       = "45s"
    enabled_tools = ["search"]
    extra         = { startup_timeout_sec = 20 }
  }
}
policy "docs" {
  disabled_tools = ["delete_*"]
}
link "all" {
  tools    = ["claude", "cursor", "opencode", "codex"]
  services = ["docs"]
}
`

// A target's values reach its tool's entry only; the others get the
// service's own, and the state records the extra keys written.
func TestTargetValuesReachOnlyTheirTool(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(perTool)
	p := m.Plan(cfg)
	if errs := p.Errors(); len(errs) > 0 {
		t.Fatalf("errors: %s", enginetest.Describe(p))
	}
	// Applied from a saved plan: extra values survive the plan file (a
	// whole number stays one).
	if _, err := m.Apply(m.Saved(p)); err != nil {
		t.Fatal(err)
	}
	if again := m.Plan(cfg); again.HasChanges() {
		t.Fatalf("the plan after apply is not clean: %s", enginetest.Describe(again))
	}

	claude := jsonEntry(t, m, ".claude.json", "mcpServers", "docs")
	cursor := jsonEntry(t, m, ".cursor/mcp.json", "mcpServers", "docs")
	opencode := jsonEntry(t, m, ".config/opencode/opencode.json", "mcp", "docs")
	if got := strings.Join(toStrings(claude["args"]), " "); got != "-y docs-mcp" {
		t.Errorf("claude args = %s, want the service's", got)
	}
	if got := strings.Join(toStrings(cursor["args"]), " "); got != "-y docs-mcp --context=ide" {
		t.Errorf("cursor args = %s, want its target's", got)
	}
	if opencode["timeout"] != float64(10000) || opencode["oauth"] != false || opencode["retries"] != float64(2) {
		t.Errorf("opencode entry = %v, want its target's timeout and extra", opencode)
	}
	codex := m.Read(m.Path(".codex/config.toml"))
	for _, want := range []string{`enabled_tools = ["search"]`, `disabled_tools = ["delete_*"]`, "tool_timeout_sec = 45", "startup_timeout_sec = 20\n"} {
		if !strings.Contains(codex, want) {
			t.Errorf("codex lacks %s (the target's tool list and the policy's other list both apply):\n%s", want, codex)
		}
	}
	var warned bool
	for _, d := range p.Diagnostics {
		warned = warned || (d.Summary == "Policy not enforced by claude")
	}
	if !warned {
		t.Errorf("claude keeps no tool lists: the policy applies through the hub only, with a warning:\n%s", enginetest.Describe(p))
	}
	for _, e := range m.State().Entries {
		want := map[string][]string{"opencode": {"oauth", "retries"}, "codex": {"startup_timeout_sec"}}[e.Tool]
		if !slices.Equal(e.Extra, want) {
			t.Errorf("state records %v as %s's extra keys, want %v", e.Extra, e.Tool, want)
		}
	}
	if svc := m.State().Services["docs"]; len(svc.Args) != 2 || svc.Timeout.String() != "30s" {
		t.Errorf("the hub's service changed: %+v", svc)
	}
}

// Changing a target's args or timeout updates that tool's entry only, with
// the difference shown.
func TestTargetChangeShowsItsDiff(t *testing.T) {
	m := enginetest.New(t)
	m.Converge(m.Config(perTool))
	edited := strings.Replace(perTool, `timeout = "10s"`, `timeout = "20s"`, 1)
	edited = strings.Replace(edited, `"--context=ide"`, `"--context=cursor"`, 1)
	p := m.Plan(m.Config(edited))
	var changed []string
	for _, c := range p.Changes {
		changed = append(changed, c.Address)
	}
	if want := []string{`link.all["cursor"].service.docs`, `link.all["opencode"].service.docs`}; !slices.Equal(changed, want) {
		t.Fatalf("changes %v, want %v", changed, want)
	}
	if d := enginetest.Change(t, p, `link.all["opencode"].service.docs`).Diff; !strings.Contains(d, `-  "timeout": 10000`) || !strings.Contains(d, `+  "timeout": 20000`) {
		t.Errorf("opencode diff:\n%s", d)
	}
	if d := enginetest.Change(t, p, `link.all["cursor"].service.docs`).Diff; !strings.Contains(d, `-    "--context=ide"`) || !strings.Contains(d, `+    "--context=cursor"`) {
		t.Errorf("cursor diff:\n%s", d)
	}
}

// A key dropped from extra is removed from the entry, and only it: a key
// the entry had that chronicle never wrote stays.
func TestDroppedExtraKeyIsRemoved(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".config/opencode/opencode.json", `{"mcp": {"docs": {"type": "local", "command": ["old"], "mine": 1}}}`)
	cfg := m.Config(perTool)
	m.Converge(cfg, `link.all["opencode"].service.docs`)
	if got := jsonEntry(t, m, ".config/opencode/opencode.json", "mcp", "docs"); got["mine"] != float64(1) || got["retries"] != float64(2) {
		t.Fatalf("after --replace: %v", got)
	}
	p := m.Plan(m.Config(strings.Replace(perTool, `extra   = { oauth = false, retries = 2 }`, `extra   = { oauth = false }`, 1)))
	c := enginetest.Change(t, p, `link.all["opencode"].service.docs`)
	if c.Action != plan.Update || !strings.Contains(c.Diff, `-  "retries": 2`) || strings.Contains(c.Diff, "mine") {
		t.Fatalf("got %s with diff:\n%s", c.Action, c.Diff)
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	got := jsonEntry(t, m, ".config/opencode/opencode.json", "mcp", "docs")
	if _, still := got["retries"]; still || got["mine"] != float64(1) || got["oauth"] != false {
		t.Fatalf("after dropping retries: %v", got)
	}
	for _, e := range m.State().Entries {
		if e.Tool == "opencode" && !slices.Equal(e.Extra, []string{"oauth"}) {
			t.Fatalf("state records %v", e.Extra)
		}
	}
}

// An extra key the provider models is an error naming the attribute to
// use, and the entry is neither written nor removed for it.
func TestOwnedExtraKeyIsAnError(t *testing.T) {
	m := enginetest.New(t)
	m.Converge(m.Config(perTool))
	p := m.Plan(m.Config(strings.Replace(perTool, `extra   = { oauth = false, retries = 2 }`, `extra   = { oauth = false, timeout = 5, environment = {} }`, 1)))
	var details []string
	for _, d := range p.Errors() {
		if d.Summary == "Extra key owned by chronicle" {
			details = append(details, d.Detail)
		}
	}
	if len(details) != 2 || !strings.Contains(details[0]+details[1], `extra key "timeout" is owned by chronicle for opencode: use timeout in target "opencode" instead`) ||
		!strings.Contains(details[0]+details[1], `use env in target "opencode"`) || !strings.Contains(details[0], "chronicle.hcl:") {
		t.Fatalf("errors: %s", enginetest.Describe(p))
	}
	if p.Has(`link.all["opencode"].service.docs`) {
		t.Fatalf("the entry is planned although its declaration is refused: %s", enginetest.Describe(p))
	}
}

// A key chronicle wrote through extra that a later version models is a
// warning, and the modelled attribute wins.
func TestExtraKeyModelledLaterIsAWarning(t *testing.T) {
	m := enginetest.New(t)
	m.Converge(m.Config(perTool))
	// As if an older chronicle had written "timeout" through extra.
	st := m.State()
	for i, e := range st.Entries {
		if e.Tool == "opencode" {
			st.Entries[i].Extra = append(e.Extra, "timeout")
		}
	}
	if err := st.Save(filepath.Join(m.Chronicle, "state.json")); err != nil {
		t.Fatal(err)
	}
	p := m.Plan(m.Config(strings.Replace(perTool, `extra   = { oauth = false, retries = 2 }`, `extra   = { oauth = false, retries = 2, timeout = 5 }`, 1)))
	if errs := p.Errors(); len(errs) > 0 {
		t.Fatalf("errors: %s", enginetest.Describe(p))
	}
	var warning string
	for _, d := range p.Diagnostics {
		if d.Summary == "Extra key now modelled by chronicle" {
			warning = d.Detail
		}
	}
	if !strings.Contains(warning, `chronicle wrote "timeout" into opencode's entry through extra before, and now models it`) {
		t.Fatalf("no warning: %s", enginetest.Describe(p))
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if got := jsonEntry(t, m, ".config/opencode/opencode.json", "mcp", "docs"); got["timeout"] != float64(10000) {
		t.Fatalf("timeout = %v, want the target's 10s", got["timeout"])
	}
}

func jsonEntry(t *testing.T, m *enginetest.Machine, rel, key, name string) map[string]any {
	t.Helper()
	var doc map[string]map[string]map[string]any
	if err := json.Unmarshal([]byte(m.Read(m.Path(rel))), &doc); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	e := doc[key][name]
	if e == nil {
		t.Fatalf("%s has no entry %s", rel, name)
	}
	return e
}

func toStrings(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
