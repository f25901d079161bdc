package adopt

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// The same server in several tools, each with its own timeout, tool lists,
// env and keys chronicle does not model, becomes one service whose target
// blocks hold each tool's own values: declared back for each tool, the
// entry is the tool's. Entries that start another command, or that one tool
// has twice with different values, keep their own service.
func TestVariantsBecomeTargets(t *testing.T) {
	home := "/home/dev"
	lit := secret.Literal
	args := []secret.Value{lit("-y"), lit("@chronova/mcp-server")}
	key := map[string]secret.Value{"CHRONOVA_API_KEY": lit("sk-test-FAKE0123456789")}
	r := scan.Result{Services: []scan.Service{
		entry("claude", "user", home+"/.claude.json", "chronova", provider.Entry{Definition: service.Definition{Command: "npx", Args: args, Env: key}}),
		entry("opencode", "user", home+"/.config/opencode/opencode.json", "chronova", provider.Entry{
			Definition: service.Definition{Command: "npx", Args: args, Env: key}, Timeout: 10 * time.Second,
			Extra: provider.Extra{"oauth": false},
		}),
		entry("gemini", "user", home+"/.gemini/settings.json", "chronova", provider.Entry{
			Definition:   service.Definition{Command: "npx", Args: args, Env: map[string]secret.Value{"CHRONOVA_API_KEY": secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "CHRONOVA_API_KEY"})}},
			Timeout:      30 * time.Second,
			EnabledTools: []string{"get_productivity_summary"},
			Extra:        provider.Extra{"trust": false, "apiKey": "abc-very-secret-value-0123456789"},
		}),
		entry("codex", "user", home+"/.codex/config.toml", "chronova", provider.Entry{
			Definition:   service.Definition{Command: "npx", Args: args, Env: map[string]secret.Value{"CHRONOVA_API_KEY": lit("sk-test-FAKE0123456789"), "CHRONOVA_API_URL": lit("https://chronova.dev/api/v1")}},
			Timeout:      45 * time.Second,
			EnabledTools: []string{"get_productivity_summary", "get_ai_insights"},
			Extra:        provider.Extra{"startup_timeout_sec": int64(20)},
		}),
		// Another command: a variant of its own, as before.
		entry("cursor", "user", home+"/.cursor/mcp.json", "chronova", provider.Entry{Definition: service.Definition{Command: "node", Args: args}}),
		// Claude again, with another env: a target holds one value per tool.
		entry("claude", "local", home+"/.claude.json", "chronova", provider.Entry{Definition: service.Definition{Command: "npx", Args: args, Env: map[string]secret.Value{"LOG": lit("debug")}}}),
	}}
	p := Propose(r, nil, t.TempDir(), home)
	var names []string
	for _, s := range p.Services {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "chronova chronova-cursor chronova-claude" {
		t.Fatalf("services = %s", got)
	}
	text := string(p.HCL(""))
	for _, want := range []string{
		`target "codex" {`, `timeout       = "45s"`, `startup_timeout_sec = 20`, `CHRONOVA_API_URL = "https://chronova.dev/api/v1"`,
		`target "gemini" {`, `trust = false`, `target "opencode" {`, `oauth = false`,
		`# Also in opencode (user scope): ~/.config/opencode/opencode.json`,
		`# Not declared: gemini's "apiKey" of entry "chronova" looks secret; it stays in the tool as it is.`,
		`# chronova-cursor differs from chronova in command, env.CHRONOVA_API_KEY.`,
		`# chronova-claude is the server of chronova with other values in the same tool`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("adopted HCL lacks %s:\n%s", want, text)
		}
	}
	for _, leak := range []string{"sk-test", "abc-very-secret"} {
		if strings.Contains(text, leak) {
			t.Errorf("adopted HCL holds a secret (%s):\n%s", leak, text)
		}
	}
	if strings.Contains(text, "policy ") || strings.Contains(text[:strings.Index(text, "target")], "timeout") {
		t.Errorf("tool lists and timeouts that differ belong to the targets, not to a policy or the service:\n%s", text)
	}

	// Loaded back, each tool's declared entry is the tool's own.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.hcl"), []byte(text), 0o644)
	cfg, _, diags := config.Load(dir, config.Options{Home: home, KnownTools: []string{"claude", "cursor", "gemini", "codex", "opencode"}})
	if diags.HasErrors() {
		t.Fatalf("adopted HCL does not load: %s\n%s", diags.Error(), text)
	}
	svc := cfg.Service("chronova")
	for _, s := range r.Services[:4] {
		tool := s.Location.Tool
		declared, _ := plan.ToolEntry(svc, nil, cfg.Target("chronova", tool), tool)
		clean, _ := secretizeNamed(s, home, nil)
		want := clean.Entry
		want.Extra = newMember(clean).extra
		if !plan.SameEntry(declared, want) || declared.Timeout != want.Timeout || !want.Extra.Equal(declared.Extra) {
			t.Errorf("%s: declared %+v\nwant %+v", tool, declared, want)
		}
	}
	if svc.Timeout != service.DefaultTimeout {
		t.Errorf("the service's own timeout is %s: the tools' differ, so it keeps the default", svc.Timeout)
	}
	if got := p.Services[0].Also; len(got) != 3 || !slices.ContainsFunc(got, func(s scan.Service) bool { return s.Location.Tool == "codex" }) {
		t.Errorf("Also = %+v", got)
	}
}

// One tool's timeout that every entry shares is the service's own, and
// shared tool lists are its policy, as before.
func TestSharedValuesStayTheService(t *testing.T) {
	lit := secret.Literal
	def := service.Definition{Command: "npx", Args: []secret.Value{lit("x")}}
	r := scan.Result{Services: []scan.Service{
		entry("gemini", "user", "/h/.gemini/settings.json", "x", provider.Entry{Definition: def, Timeout: 15 * time.Second, DisabledTools: []string{"rm"}}),
		entry("codex", "user", "/h/.codex/config.toml", "x", provider.Entry{Definition: def, Timeout: 15 * time.Second, DisabledTools: []string{"rm"}}),
	}}
	p := Propose(r, nil, t.TempDir(), "/h")
	text := string(p.HCL(""))
	if len(p.Services) != 1 || !strings.Contains(text, `timeout = "15s"`) || !strings.Contains(text, `policy "x"`) || strings.Contains(text, "target") {
		t.Fatalf("adopted HCL:\n%s", text)
	}
}
