package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// canary returns a secret value with the characters escaping changes and
// non-ASCII text, distinct per input position.
func canary(position string) string {
	return `c4n&a<r>y"\/+=%-ü秘-` + position
}

// forms are the ways a canary can leak: raw, JSON-escaped (with and without
// HTML escaping) and URL-encoded.
func forms(s string) []string {
	out := []string{s, url.QueryEscape(s), url.PathEscape(s)}
	b, _ := json.Marshal(s)
	out = append(out, string(b[1:len(b)-1]))
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	out = append(out, strings.TrimSuffix(strings.TrimSuffix(sb.String(), "\n"), `"`)[1:])
	return out
}

// TestNoSecretInAnyOutput puts a canary secret in every input position a
// command reads — a service's env, headers, args, URL userinfo and query,
// the hub token, the Chronova key, ~/.chronicle/env, a sensitive variable,
// env() under a secret-looking key, a tool's file holding a declared secret
// in plain text — runs every command with and without --json, and scans
// every output, the state, its backup and a saved plan for each canary in
// every form.
func TestNoSecretInAnyOutput(t *testing.T) {
	bin := chronicleBinary(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	cfg := filepath.Join(root, "cfg")
	bad := filepath.Join(root, "bad")
	for _, d := range []string{home, cfg, bad, filepath.Join(home, ".chronicle"), filepath.Join(home, ".cursor")} {
		os.MkdirAll(d, 0o700)
	}
	positions := []string{"env", "header", "arg", "urlpw", "query", "hubtoken", "chronova", "envfile", "sensitive", "envfn", "toolfile"}
	canaries := map[string]string{}
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "CODEX_HOME=", "CHRONICLE_HOME=", "NO_COLOR=1")
	for _, p := range positions {
		canaries[p] = canary(p)
	}
	for _, p := range []string{"env", "header", "arg", "urlpw", "query", "hubtoken", "chronova", "envfn"} {
		env = append(env, "CANARY_"+strings.ToUpper(p)+"="+canaries[p])
	}
	env = append(env, "CANARY_TOOLFILE="+canaries["toolfile"])
	os.WriteFile(filepath.Join(home, ".chronicle", "env"), []byte("CANARY_ENVFILE="+strings.ReplaceAll(canaries["envfile"], `"`, `\"`)+"\n"), 0o600)
	// The user's cursor file holds the declared secret in plain text.
	toolfile, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"svc": map[string]any{
		"command": "npx", "env": map[string]string{"API_TOKEN": canaries["toolfile"]}}}})
	os.WriteFile(filepath.Join(home, ".cursor", "mcp.json"), toolfile, 0o600)
	os.WriteFile(filepath.Join(cfg, "chronicle.hcl"), []byte(`
service "svc" {
  command = "npx"
  env     = { API_TOKEN = secret("env:CANARY_TOOLFILE") }
}
service "stdio" {
  command = "npx"
  args    = ["--key", secret("env:CANARY_ARG")]
  env     = { GITHUB_TOKEN = secret("env:CANARY_ENV"), FROM_FILE = secret("env:CANARY_ENVFILE") }
}
service "remote" {
  url     = "https://user:${secret("env:CANARY_URLPW")}@mcp.example.com/mcp?token=${secret("env:CANARY_QUERY")}"
  headers = { Authorization = "Bearer ${secret("env:CANARY_HEADER")}" }
}
hub {
  token = secret("env:CANARY_HUBTOKEN")
}
chronova {
  api_key = secret("env:CANARY_CHRONOVA")
}
link "direct" {
  tools    = ["cursor", "claude"]
  services = ["svc", "stdio", "remote"]
}
`), 0o644)
	// A configuration whose sensitive values are refused: the diagnostics
	// must not show them either.
	os.WriteFile(filepath.Join(bad, "chronicle.hcl"), []byte(fmt.Sprintf(`
variable "pw" {
  default   = %q
  sensitive = true
}
service "a" {
  command = "x"
  args    = [var.pw]
}
service "b" {
  command = "x"
  env     = { GITHUB_TOKEN = env("CANARY_ENVFN") }
}
`, canaries["sensitive"])), 0o644)

	var outputs []string
	runAny := func(dir string, args ...string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = dir, env
		out, _ := cmd.CombinedOutput()
		outputs = append(outputs, fmt.Sprintf("chronicle %s\n%s", strings.Join(args, " "), out))
	}
	planFile := filepath.Join(root, "saved.plan")
	for _, args := range [][]string{
		{"validate"}, {"validate", "--json"}, {"scan"}, {"scan", "--json"}, {"plan"}, {"plan", "--json"},
		{"plan", "--out", planFile}, {"show", planFile}, {"show", "--json", planFile},
		{"apply", "--auto-approve", "--json", "--replace", `link.direct["cursor"].service.svc`},
		{"plan", "--json"}, {"state", "list"}, {"state", "show", "service.stdio"}, {"state", "show", "service.remote"},
		{"state", "show", "hub"}, {"state", "show", "chronova"}, {"state", "show", `link.direct["cursor"].service.remote`},
		{"backups", "list"}, {"backups", "list", "--json"}, {"doctor"}, {"adopt", "--dry-run"},
		// A second command that saves the state, so that the backup holds
		// the state the first apply wrote.
		{"state", "rm", `link.direct["cursor"].service.remote`},
	} {
		runAny(cfg, args...)
	}
	for _, args := range [][]string{{"validate"}, {"validate", "--json"}, {"plan"}, {"plan", "--json"}} {
		runAny(bad, args...)
	}
	if os.Getenv("CANARY_DEBUG") != "" {
		for _, o := range outputs {
			t.Log(o)
		}
	}
	files := map[string]string{}
	for _, f := range []string{filepath.Join(home, ".chronicle", "state.json"), filepath.Join(home, ".chronicle", "state.json.backup"), planFile} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		files[f] = string(b)
	}
	if !strings.Contains(strings.Join(outputs, ""), "c4n&…******") {
		t.Fatal("no output shows a masked canary: the commands never met one, so the test proves nothing")
	}
	if !strings.Contains(files[planFile], `secret(\"env:CANARY_ARG\")`) {
		t.Fatalf("the saved plan does not hold the reference: the test does not see what it tests")
	}
	for p, c := range canaries {
		for _, form := range forms(c) {
			for _, out := range outputs {
				if strings.Contains(out, form) {
					t.Errorf("the %s canary (form %q) appears in:\n%.1500s", p, form, out)
				}
			}
			for f, content := range files {
				if strings.Contains(content, form) {
					t.Errorf("the %s canary (form %q) appears in %s", p, form, f)
				}
			}
		}
	}
}
