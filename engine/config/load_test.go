package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

var testTools = []string{"claude", "claude-desktop", "cursor", "gemini", "codex", "vscode", "windsurf", "zed", "opencode", "agents"}

func load(t *testing.T, src string, env map[string]string, vars map[string]string) (*Config, hcl.Diagnostics) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "chronicle.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, diags := Load(dir, Options{
		Home:       "/home/dev",
		Getenv:     func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Vars:       vars,
		KnownTools: testTools,
	})
	return cfg, diags
}

func mustLoad(t *testing.T, src string) *Config {
	t.Helper()
	cfg, diags := load(t, src, nil, nil)
	if diags.HasErrors() {
		t.Fatalf("unexpected diagnostics: %s", diags.Error())
	}
	return cfg
}

func TestServiceDecoding(t *testing.T) {
	cfg := mustLoad(t, `
service "github" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-github"]
  env     = { GITHUB_PERSONAL_ACCESS_TOKEN = secret("env:GITHUB_TOKEN") }
  timeout = "90s"
  cwd     = "~/src"
}
service "linear" {
  url     = "https://mcp.linear.app/mcp"
  headers = { Authorization = "Bearer ${secret("env:LINEAR_TOKEN")}" }
  project = "work/api"
  enabled = false
}
service "events" {
  url       = "https://events.example.com/sse"
  transport = "sse"
}
`)
	gh := cfg.Service("github")
	if gh.Transport != service.Stdio || gh.Command != "npx" || len(gh.Args) != 2 || gh.Timeout != 90*time.Second || gh.Cwd != "/home/dev/src" {
		t.Fatalf("github decoded wrong: %+v", gh)
	}
	ref, ok := gh.Env["GITHUB_PERSONAL_ACCESS_TOKEN"].OnlyRef()
	if !ok || ref != (secret.Ref{Kind: secret.KindEnv, Name: "GITHUB_TOKEN"}) {
		t.Fatalf("env is not a secret reference: %v", gh.Env)
	}
	lin := cfg.Service("linear")
	if lin.Transport != service.HTTP || lin.Enabled || lin.Project != filepath.Join(cfg.Dir, "work/api") || lin.Timeout != service.DefaultTimeout {
		t.Fatalf("linear decoded wrong: %+v", lin)
	}
	if got := lin.Headers["Authorization"].HCL(); got != `Bearer ${secret("env:LINEAR_TOKEN")}` {
		t.Fatalf("header = %s", got)
	}
	if cfg.Service("events").Transport != service.SSE {
		t.Fatal("explicit sse transport lost")
	}
}

func TestSecretsAreNeverResolved(t *testing.T) {
	env := map[string]string{"CANARY": "canary-0123456789-value"}
	cfg, diags := load(t, `
service "x" {
  command = "run"
  env = { T = secret("env:CANARY") }
}
hub { token = secret("file:~/.token") }
`, env, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if strings.Contains(cfg.Service("x").Env["T"].String(), "canary") {
		t.Fatal("secret resolved at load time")
	}
	if cfg.Hub.Token.HCL() != `${secret("file:~/.token")}` {
		t.Fatalf("hub token = %s", cfg.Hub.Token.HCL())
	}
}

func TestVariablesAndLocals(t *testing.T) {
	src := `
variable "work" {
  type    = string
  default = "~/work"
}
variable "agents" {
  type    = list(string)
  default = ["claude"]
}
variable "pw" {
  type      = string
  default   = "hunter2-long"
  sensitive = true
}
locals {
  all  = concat(local.base, ["cursor"])
  base = var.agents
}
chronicle { projects = ["${var.work}/api"] }
service "s" {
  command = "x"
  args    = [nonsensitive(var.pw)]
}
skill "k" {
  git = "https://example.com/skills"
}
link "l" {
  tools  = local.all
  skills = ["k"]
}
`
	cfg, diags := load(t, src, map[string]string{"CHRONICLE_VAR_work": "/env/work"}, map[string]string{"agents": `["codex", "gemini"]`})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if cfg.Projects[0] != "/env/work/api" {
		t.Errorf("CHRONICLE_VAR_work not used: %v", cfg.Projects)
	}
	if got := strings.Join(cfg.Links[0].Tools, ","); got != "codex,gemini,cursor" {
		t.Errorf("--var agents and locals in any order: tools = %s", got)
	}
	if len(cfg.Sensitive) != 1 || cfg.Sensitive[0] != "hunter2-long" {
		t.Errorf("sensitive values = %v", cfg.Sensitive)
	}
}

// A sensitive variable or env() of a secret-looking name is refused wherever
// it would be stored, through locals, functions and templates, with a
// diagnostic at the expression that suggests secret("env:NAME").
func TestSensitiveValuesAreRefused(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"sensitive variable": {`
variable "pw" {
  default   = "hunter2-long"
  sensitive = true
}
locals { header = "Bearer ${upper(var.pw)}" }
service "s" {
  url     = "https://x"
  headers = { Authorization = local.header }
}`, "var.pw"},
		"env of a secret-looking name": {`
service "s" {
  command = "x"
  env     = { GITHUB_TOKEN = env("GH_TOKEN") }
}`, `secret("env:GH_TOKEN")`},
		"in a url": {`
service "s" {
  url = "https://u:${env("DB_PASSWORD")}@db.example.com/mcp"
}`, `secret("env:DB_PASSWORD")`},
	} {
		t.Run(name, func(t *testing.T) {
			_, diags := load(t, tc.src, map[string]string{"GH_TOKEN": "ghp_realtokenvalue123", "DB_PASSWORD": "pa55w0rd-x"}, nil)
			if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.want) || !strings.Contains(diags.Error(), "Sensitive value") {
				t.Fatalf("diagnostics: %v", diags)
			}
			if diags[0].Subject == nil || diags[0].Subject.Start.Line < 2 {
				t.Fatalf("the diagnostic does not point at the expression: %+v", diags[0].Subject)
			}
			if strings.Contains(diags.Error(), "ghp_realtokenvalue123") || strings.Contains(diags.Error(), "pa55w0rd-x") {
				t.Fatal("the diagnostic shows the secret")
			}
		})
	}
	// A harmless env() and nonsensitive() pass, and the secret-looking value
	// is registered for masking even when refused.
	cfg, diags := load(t, `
service "s" {
  command = "x"
  args    = [env("HOME_DIR"), nonsensitive(env("MY_TOKEN"))]
}`, map[string]string{"HOME_DIR": "/home/x", "MY_TOKEN": "not-really-secret"}, nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(cfg.Services[0].Args) != 2 || !slices.Contains(cfg.Sensitive, "not-really-secret") {
		t.Fatalf("args %v, sensitive %v", cfg.Services[0].Args, cfg.Sensitive)
	}
}

func TestVariableValidation(t *testing.T) {
	_, diags := load(t, `
variable "n" {
  type    = number
  default = 3
  validation {
    condition     = var.n > 5
    error_message = "n must be over five."
  }
}`, nil, nil)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "n must be over five.") {
		t.Fatalf("validation rule not applied: %v", diags)
	}
}

// TestDiagnostics checks that each kind of mistake is reported with a
// summary a user can act on, at the line that holds it.
func TestDiagnostics(t *testing.T) {
	tests := []struct {
		name, src, summary, detail string
		line                       int
	}{
		{"unknown block", "servce \"x\" {}\n", "Unsupported block type", `Did you mean "service"?`, 1},
		{"unknown attribute", "service \"x\" {\n  comand = \"npx\"\n}\n", "Unsupported argument", `Did you mean "command"?`, 2},
		{"wrong type", "service \"x\" {\n  command = \"x\"\n  args = \"-y\"\n}\n", "Incorrect attribute value type", "list of string required", 3},
		{"missing required", "link \"l\" {\n  hub = true\n}\n", "Missing required argument", "needs tools", 1},
		{"duplicate", "service \"x\" {\n  command = \"a\"\n}\nservice \"x\" {\n  command = \"b\"\n}\n", `Duplicate service "x"`, "already declared", 4},
		{"path name", "service \"../x\" {\n  command = \"a\"\n}\n", "Invalid service name", "not valid", 1},
		{"uppercase name", "skill \"Review\" {\n  source = \".\"\n}\n", "Invalid skill name", "not valid", 1},
		{"double hyphen", "link \"a--b\" {\n  tools = [\"claude\"]\n  hub = true\n}\n", "Invalid link name", "not valid", 1},
		{"long name", "service \"" + strings.Repeat("a", 65) + "\" {\n  command = \"a\"\n}\n", "Invalid service name", "65 characters", 1},
		{"policy undeclared", "policy \"gthub\" {\n  enabled = false\n}\nservice \"github\" {\n  command = \"a\"\n}\n", "Policy for an undeclared service", `Did you mean "github"?`, 1},
		{"link undeclared skill", "link \"l\" {\n  tools = [\"claude\"]\n  skills = [\"nope\"]\n}\n", "Link to an undeclared skill", `"nope"`, 3},
		{"link undeclared service", "link \"l\" {\n  tools = [\"claude\"]\n  services = [\"nope\"]\n}\n", "Link to an undeclared service", `"nope"`, 3},
		{"unknown tool", "link \"l\" {\n  tools = [\"claud\"]\n  hub = true\n}\n", "Unknown tool", `Did you mean "claude"?`, 2},
		{"both command and url", "service \"x\" {\n  command = \"a\"\n  url = \"https://x\"\n}\n", "Both command and url", "", 1},
		{"neither command nor url", "service \"x\" {\n  enabled = true\n}\n", "Missing command or url", "", 1},
		{"secret kind", "service \"x\" {\n  command = \"a\"\n  env = { T = secret(\"vault:x\") }\n}\n", "Invalid function argument", `unknown kind "vault"`, 3},
		{"secret into function", "service \"x\" {\n  command = \"a\"\n  args = [upper(secret(\"env:T\"))]\n}\n", "Invalid function argument", "cannot be passed to upper()", 3},
		{"secret in command", "service \"x\" {\n  command = secret(\"env:T\")\n}\n", "Secret not allowed here", "", 2},
		{"chronova clash", "chronova {}\nservice \"chronova\" {\n  command = \"a\"\n}\n", "Service name taken by the chronova block", "", 2},
		{"reserved name", "service \"chronicle\" {\n  command = \"a\"\n}\n", "Reserved service name", "", 1},
		{"http git", "skill \"k\" {\n  git = \"http://example.com/r\"\n}\n", "Unsupported git URL", "Only https://", 2},
		{"git credentials", "skill \"k\" {\n  git = \"https://u:p@example.com/r\"\n}\n", "Unsupported git URL", "credentials", 2},
		{"bad duration", "service \"x\" {\n  command = \"a\"\n  timeout = \"soon\"\n}\n", "Invalid duration", "", 3},
		{"bad mode", "link \"l\" {\n  tools = [\"claude\"]\n  hub = true\n  mode = \"hardlink\"\n}\n", "Invalid value", "", 4},
		{"open hub without token", "hub {\n  listen = \"0.0.0.0:7311\"\n}\n", "Hub token required", "", 1},
		{"syntax error", "service \"x\" {\n  command = \n}\n", "Invalid expression", "", 2},
		{"undeclared var", "service \"x\" {\n  command = var.nope\n}\n", "Unsupported attribute", "", 2},
		{"local cycle", "locals {\n  a = local.b\n  b = local.a\n}\n", "Cycle in local values", "", 2},
		{"tool shadows builtin", "tool \"claude\" {\n  format = \"json\"\n  config = \"~/x.json\"\n}\n", "Tool already known", "", 1},
		{"tool bad format", "tool \"acme\" {\n  format = \"yaml\"\n  config = \"~/x\"\n}\n", "Invalid value", "", 2},
		{"stdio attr on remote", "service \"x\" {\n  url = \"https://x\"\n  args = [\"a\"]\n}\n", "Attribute only for stdio services", "", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := load(t, tt.src, nil, nil)
			var found *hcl.Diagnostic
			for _, d := range diags {
				if d.Summary == tt.summary {
					found = d
					break
				}
			}
			if found == nil {
				t.Fatalf("no %q diagnostic; got: %s", tt.summary, diags.Error())
			}
			if found.Severity != hcl.DiagError {
				t.Errorf("severity = %v, want error", found.Severity)
			}
			if !strings.Contains(found.Detail, tt.detail) {
				t.Errorf("detail %q does not contain %q", found.Detail, tt.detail)
			}
			if found.Subject == nil || found.Subject.Start.Line != tt.line {
				t.Errorf("subject = %v, want line %d", found.Subject, tt.line)
			}
		})
	}
}

func TestUndeclaredVarFlag(t *testing.T) {
	_, diags := load(t, "variable \"work\" {\n  default = \"x\"\n}\n", nil, map[string]string{"wrk": "y"})
	if !diags.HasErrors() || !strings.Contains(diags.Error(), `Did you mean "work"?`) {
		t.Fatalf("undeclared --var not reported: %v", diags)
	}
}

func TestMultipleFilesAndNoFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "services.hcl"), []byte("service \"a\" {\n  command = \"x\"\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "links.hcl"), []byte("link \"l\" {\n  tools = [\"claude\"]\n  services = [\"a\"]\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not hcl"), 0o644)
	cfg, _, diags := Load(dir, Options{Home: "/h", KnownTools: testTools})
	if diags.HasErrors() || len(cfg.Files) != 2 || len(cfg.Links) != 1 {
		t.Fatalf("files %v, diags %v", cfg.Files, diags)
	}
	empty, _, diags := Load(t.TempDir(), Options{Home: "/h"})
	if diags.HasErrors() || len(empty.Files) != 0 {
		t.Fatalf("an empty directory is no configuration, not an error: %v", diags)
	}
}

func TestGitSkillAndInclude(t *testing.T) {
	cfg := mustLoad(t, `
skill "anthropic" {
  git      = "https://github.com/anthropics/skills"
  ref      = "main"
  path     = "skills"
  include  = ["pdf", "docx"]
  max_size = "10MiB"
}
link "l" {
  tools  = ["claude"]
  skills = ["pdf"]
}
`)
	s := cfg.Skill("anthropic")
	if !s.IsGit() || s.MaxSize != 10<<20 || strings.Join(cfg.SkillNames(), ",") != "pdf,docx" {
		t.Fatalf("git skill decoded wrong: %+v, names %v", s, cfg.SkillNames())
	}
}

func TestFunctions(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "desc.txt"), []byte("from a file"), 0o644)
	os.WriteFile(filepath.Join(dir, "c.hcl"), []byte(`
service "x" {
  command     = "run"
  description = "${trimspace(file("desc.txt"))} ${upper(env("WHO"))} ${length("abc")}"
  args        = [abspath("sub"), homedir(), base64encode("hi")]
}`), 0o644)
	cfg, _, diags := Load(dir, Options{Home: "/home/u", Getenv: func(k string) (string, bool) { return "me", k == "WHO" }, KnownTools: testTools})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	s := cfg.Service("x")
	if s.Description != "from a file ME 3" {
		t.Errorf("description = %q", s.Description)
	}
	want := []string{filepath.Join(dir, "sub"), "/home/u", "aGk="}
	for i, w := range want {
		if got, _ := s.Args[i].Literal(); got != w {
			t.Errorf("args[%d] = %q, want %q", i, got, w)
		}
	}
}

func TestPlainSecretsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		src string
		bad bool
	}{
		{`service "s" {
  command = "x"
  env     = { GITHUB_TOKEN = "ghp_literal0123456789" }
}`, true},
		{`service "s" {
  command = "x"
  env     = { GITHUB_TOKEN = nonsensitive("not-a-secret") }
}`, false},
		{`service "s" {
  command = "x"
  env     = { GITHUB_TOKEN = secret("env:GH_TOKEN"), LOG_LEVEL = "debug" }
}`, false},
		{`service "s" {
  url     = "https://x"
  headers = { Authorization = "Bearer abcdef0123456789" }
}`, true},
		{`service "s" {
  url     = "https://x"
  headers = { Authorization = "Bearer ${secret("env:T")}" }
}`, false},
		{`service "s" {
  command = "x"
  env     = { API_KEY = env("ANYTHING") }
}`, true},
		{`service "s" {
  url = "https://user:pa55word@db.example.com/mcp"
}`, true},
		{`service "s" {
  url = "https://user:${secret("env:DB_PASSWORD")}@db.example.com/mcp"
}`, false},
		{`service "s" {
  url = "https://api.example.com/mcp?access_token=abc123def&page=2"
}`, true},
		{`service "s" {
  url = "https://api.example.com/mcp?token=${secret("env:T")}&page=2"
}`, false},
		{`hub {
  token = "literal-hub-token"
}`, true},
	} {
		_, diags := load(t, tc.src, map[string]string{"ANYTHING": "value-of-anything"}, nil)
		bad := diags.HasErrors() && strings.Contains(diags.Error(), "Secret in plain text")
		if bad != tc.bad {
			t.Errorf("%s\n  refused = %v, want %v (%v)", tc.src, bad, tc.bad, diags)
		}
		for _, secretText := range []string{"ghp_literal0123456789", "abcdef0123456789", "pa55word", "abc123def", "literal-hub-token", "value-of-anything"} {
			if strings.Contains(diags.Error(), secretText) {
				t.Errorf("a diagnostic shows %q", secretText)
			}
		}
	}
}

func TestGitURLCredentialsAreRefused(t *testing.T) {
	for _, u := range []string{"https://bob:hunter2pass@example.com/skills", "https://example.com/skills?access_token=abc123token"} {
		_, diags := load(t, `skill "k" {
  git = "`+u+`"
}`, nil, nil)
		if !diags.HasErrors() || !strings.Contains(diags.Error(), "credential") {
			t.Errorf("%s: %v", u, diags)
		}
		if strings.Contains(diags.Error(), "hunter2pass") || strings.Contains(diags.Error(), "abc123token") {
			t.Errorf("the diagnostic shows the credential: %v", diags)
		}
	}
}

// A sensitive value inside a collection passed to a function (merge, values,
// zipmap, flatten, reverse) is refused with a diagnostic, as it is passed
// whole: no panic, no goroutine stack, no value in the message.
func TestSensitiveValueInsideFunctionArguments(t *testing.T) {
	for _, expr := range []string{
		`merge({a = var.t}).a`,
		`values({a = var.t})[0]`,
		`zipmap(["a"], [var.t]).a`,
		`flatten([[var.t]])[0]`,
		`reverse([var.t, "x"])[0]`,
		`join(",", [var.t])`,
	} {
		t.Run(expr, func(t *testing.T) {
			_, diags := load(t, `
variable "t" {
  default   = "hunter2-sensitive-value"
  sensitive = true
}
service "s" {
  command = "x"
  args    = [`+expr+`]
}`, nil, nil)
			text := diags.Error()
			if !diags.HasErrors() || !strings.Contains(text, "Sensitive value would be stored in plain text") || !strings.Contains(text, "var.t") {
				t.Fatalf("diagnostics: %s", text)
			}
			if strings.Contains(text, "panic") || strings.Contains(text, "hunter2-sensitive-value") {
				t.Fatalf("diagnostics: %s", text)
			}
		})
	}
	cfg := mustLoad(t, `
variable "t" {
  default   = "plain-value"
  sensitive = true
}
service "s" {
  command = "x"
  args    = [nonsensitive(merge({a = var.t}).a)]
}`)
	if got := cfg.Services[0].Args[0].HCL(); !strings.Contains(got, "plain-value") {
		t.Fatalf("args[0] = %s", got)
	}
}

// A token-shaped literal under a key that does not look secret or in args,
// the argument after a secret-looking flag and a secret flag's inline value
// are refused like a literal under API_KEY; nonsensitive() lets one through.
func TestTokenShapedLiteralsAreRefused(t *testing.T) {
	for _, tc := range []struct {
		body string
		bad  bool
	}{
		{`env = { FOO = "sk-canary-7f3a9c2e0d41" }`, true},
		{`args = ["ghp_FAKE0123456789abcdefABCDEF0123"]`, true},
		{`args = ["--url", "https://api.example.com/mcp?key=abc123def456"]`, true},
		{`args = ["--password", "hunter2"]`, true},
		{`args = ["--api-key=abcdef123456"]`, true},
		{`args = ["--token", secret("env:T")]`, false},
		{`args = ["--token-file", "/home/dev/.token", "--verbose"]`, false},
		{`args = ["--password", nonsensitive("hunter2")]`, false},
		{`env = { FOO = nonsensitive("sk-canary-7f3a9c2e0d41") }`, false},
		{`args = ["-y", "@modelcontextprotocol/server-github", "/home/dev/work"]`, false},
	} {
		src := "service \"s\" {\n  command = \"x\"\n  " + tc.body + "\n}\n"
		_, diags := load(t, src, nil, nil)
		bad := diags.HasErrors() && strings.Contains(diags.Error(), "Secret in plain text")
		if bad != tc.bad {
			t.Errorf("%s\n  refused = %v, want %v (%v)", tc.body, bad, tc.bad, diags)
		}
		for _, leak := range []string{"sk-canary-7f3a9c2e0d41", "ghp_FAKE0123456789abcdefABCDEF0123", "abc123def456", "hunter2", "abcdef123456"} {
			if strings.Contains(diags.Error(), leak) {
				t.Errorf("%s: a diagnostic shows %q", tc.body, leak)
			}
		}
	}
}
