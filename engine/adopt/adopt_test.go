package adopt

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

func TestValidName(t *testing.T) {
	for in, want := range map[string]string{
		"weird.name": "weird-name", "My_Server": "my-server", "--x--": "x", "...": "service",
		"internalDocs": "internaldocs", strings.Repeat("a", 70): strings.Repeat("a", 64),
	} {
		if got := validName(in); got != want || !names.Valid(got) {
			t.Errorf("validName(%q) = %q, want %q", in, got, want)
		}
	}
}

func entry(tool, scope, file, name string, e provider.Entry) scan.Service {
	e.Name = name
	if e.Transport == "" {
		e.Transport = service.Stdio
	}
	e.Enabled = true
	return scan.Service{Location: provider.Location{Tool: tool, Scope: scope, File: file, KeyPath: []string{"mcpServers"}}, Entry: e, Status: scan.StatusNew}
}

func TestProposeSecretsNamesAndDedup(t *testing.T) {
	home := "/home/dev"
	lit := secret.Literal
	r := scan.Result{Services: []scan.Service{
		entry("claude", "user", home+"/.claude.json", "github", provider.Entry{
			Definition: service.Definition{Command: "npx", Args: []secret.Value{lit("-y"), lit("gh")}, Env: map[string]secret.Value{"GITHUB_TOKEN": lit("ghp_abcdefghijklmnopqrstuvwxyz012345"), "LOG": lit("debug")}},
		}),
		// The same server elsewhere, with its secret already a reference: one block.
		entry("cursor", "user", home+"/.cursor/mcp.json", "github", provider.Entry{
			Definition: service.Definition{Command: "npx", Args: []secret.Value{lit("-y"), lit("gh")}, Env: map[string]secret.Value{"GITHUB_TOKEN": secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "GITHUB_TOKEN"}), "LOG": lit("debug")}},
		}),
		// Another server under the same name: a second block named after its tool.
		entry("codex", "user", home+"/.codex/config.toml", "github", provider.Entry{
			Definition: service.Definition{Transport: service.HTTP, URL: lit("https://api.example.com/mcp"), Headers: map[string]secret.Value{"Authorization": lit("Bearer lin_api_0123456789abcdef")}},
		}),
		entry("codex", "user", home+"/.codex/config.toml", "weird.name", provider.Entry{Definition: service.Definition{Command: "x", Args: []secret.Value{lit("${not-a-ref}")}}}),
		entry("claude", "user", home+"/.claude.json", "chronicle", provider.Entry{Definition: service.Definition{Command: "chronicle"}}),
	}}
	p := Propose(r, nil, t.TempDir(), home)
	var names []string
	for _, s := range p.Services {
		names = append(names, s.Name+"="+s.Origin)
	}
	if got := strings.Join(names, " "); got != "github=claude:user github-codex=codex:user:github weird-name=codex:user:weird.name" {
		t.Fatalf("services = %s", got)
	}
	text := string(p.HCL(""))
	for _, want := range []string{
		`GITHUB_TOKEN = secret("env:GITHUB_TOKEN")`,
		`LOG          = "debug"`,
		// Another value derived as GITHUB_TOKEN: a name of its own, never
		// the claude entry's token.
		`Authorization = "Bearer ${secret("env:GITHUB_TOKEN_2")}"`,
		`# Secret: export GITHUB_TOKEN_2 (its current value is in ~/.codex/config.toml at mcpServers.github.headers.Authorization; another tool holds a different value under GITHUB_TOKEN, so this one has a name of its own).`,
		`# Secret: export GITHUB_TOKEN (its current value is in ~/.claude.json at mcpServers.github.env.GITHUB_TOKEN).`,
		`args    = ["$${not-a-ref}"]`,
		`origin  = "codex:user:weird.name"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("adopted HCL lacks %s:\n%s", want, text)
		}
	}
	for _, leak := range []string{"ghp_", "lin_api_"} {
		if strings.Contains(text, leak) {
			t.Errorf("adopted HCL holds a secret (%s):\n%s", leak, text)
		}
	}
	// The text is a valid configuration.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.hcl"), []byte(text), 0o644)
	if _, _, diags := config.Load(dir, config.Options{Home: home}); diags.HasErrors() {
		t.Fatalf("adopted HCL does not load: %s\n%s", diags.Error(), text)
	}
}

func TestProposeSkipsDeclaredAndKeepsSkillsApart(t *testing.T) {
	cfg := &config.Config{Services: []*service.Service{{Name: "github"}}}
	r := scan.Result{Services: []scan.Service{entry("claude", "user", "/h/.claude.json", "github", provider.Entry{Definition: service.Definition{Command: "x"}})}}
	r.Services[0].Status = scan.StatusConflict
	if p := Propose(r, cfg, t.TempDir(), "/h"); !p.Empty() {
		t.Fatalf("a declared service was proposed again: %+v", p.Services)
	}
}

// TestProposeKeepsAbsentNames: a block absent on this machine (when =
// false) keeps its name; an entry of that name in a tool is adopted under
// another, so the configuration still loads.
func TestProposeKeepsAbsentNames(t *testing.T) {
	cfg := &config.Config{Absent: []config.Absent{{Kind: "service", Name: "work-db"}}}
	r := scan.Result{Services: []scan.Service{entry("claude", "user", "/h/.claude.json", "work-db", provider.Entry{Definition: service.Definition{Command: "x"}})}}
	p := Propose(r, cfg, t.TempDir(), "/h")
	if len(p.Services) != 1 || p.Services[0].Name != "work-db-2" {
		t.Fatalf("services %+v, want work-db-2", p.Services)
	}
}
