package goose

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

const file = "/.config/goose/config.yaml"

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	entries := tt.ReadCheck(t, p, env, provider.ScopeUser, file, []tt.Want{
		{Name: "filesystem", Transport: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, Enabled: true},
		{Name: "remote-tools", Transport: "http", URL: "https://example.com/mcp", Enabled: true},
		{Name: "github", Transport: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github"},
			Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": `${secret("env:GITHUB_PERSONAL_ACCESS_TOKEN")}`}, Enabled: true},
		{Name: "context7", Transport: "http", URL: "https://mcp.context7.com/mcp",
			Headers: map[string]string{"CONTEXT7_API_KEY": "ctx7sk-FAKE0123456789"}, Enabled: false},
		{Name: "linear-issues", Transport: "http", URL: "https://mcp.linear.app/mcp",
			Headers: map[string]string{"Authorization": `Bearer ${secret("env:LINEAR_API_KEY")}`}, Enabled: true,
			EnabledTools: []string{"list_issues", "get_issue"}},
	})
	if entries[0].Timeout != 300*time.Second {
		t.Errorf("timeout %v", entries[0].Timeout)
	}
	if dirs := p.SkillDirs(env); len(dirs) != 2 || dirs[0].Dir != env.Home+"/.agents/skills" || len(dirs[0].SharedWith) != 2 {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

func TestPaths(t *testing.T) {
	for _, tc := range []struct {
		goos string
		vars map[string]string
		want string
	}{
		{"linux", nil, "/h/.config/goose/config.yaml"},
		{"darwin", nil, "/h/.config/goose/config.yaml"},
		{"linux", map[string]string{"XDG_CONFIG_HOME": "/x"}, "/x/goose/config.yaml"},
		{"linux", map[string]string{"XDG_CONFIG_HOME": "rel"}, "/h/.config/goose/config.yaml"},
		{"linux", map[string]string{"GOOSE_PATH_ROOT": "/g"}, "/g/config/config.yaml"},
		{"windows", map[string]string{"APPDATA": "/h/AppData/Roaming"}, "/h/AppData/Roaming/Block/goose/config/config.yaml"},
		{"windows", nil, "/h/AppData/Roaming/Block/goose/config/config.yaml"},
	} {
		env := provider.Env{Home: "/h", Getenv: func(k string) (string, bool) { v, ok := tc.vars[k]; return v, ok }}
		if got := configFile(env, tc.goos); got != tc.want {
			t.Errorf("%s %v: %s, want %s", tc.goos, tc.vars, got, tc.want)
		}
	}
}

func TestWrites(t *testing.T) {
	stdio := provider.Entry{Name: "chronicle-added", Enabled: true, Definition: service.Definition{
		Transport: service.Stdio, Command: "npx", Args: []secret.Value{secret.Literal("-y"), secret.Literal("@example/mcp")},
		Env: map[string]secret.Value{"API_KEY": tt.Env("API_KEY"), "LOG_LEVEL": secret.Literal("debug")}}}
	tt.Writes(t, New(), provider.ScopeUser, file, stdio)
	stdio.Enabled, stdio.Timeout, stdio.EnabledTools = false, 45*time.Second, []string{"read"}
	tt.Writes(t, New(), provider.ScopeUser, file, stdio)
	remote := provider.Entry{Name: "chronicle-remote", Enabled: true, Definition: service.Definition{
		Transport: service.HTTP, URL: secret.Concat(secret.Literal("https://mcp.example.com/mcp?team="), tt.Env("TEAM")),
		Headers: map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("Bearer "), tt.Env("EXAMPLE_TOKEN"))}}}
	tt.Writes(t, New(), provider.ScopeUser, file, remote)
}

// TestAddKeepsTheRestOfTheFile: a new extension goes after the last one,
// indented like the others and, as they are, after a blank line; every
// other byte — comments, blank lines, goose's own extensions — is as it was.
func TestAddKeepsTheRestOfTheFile(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	before := string(tt.ReadFile(t, loc.File))
	e := provider.Entry{Name: "chronicle", Enabled: true, Definition: service.Definition{
		Transport: service.Stdio, Command: "chronicle", Args: []secret.Value{secret.Literal("serve"), secret.Literal("--stdio")}}}
	if err := pt.Put(p, loc, e); err != nil {
		t.Fatal(err)
	}
	after := string(tt.ReadFile(t, loc.File))
	added := "  chronicle:\n    enabled: true\n    type: stdio\n    name: chronicle\n    cmd: chronicle\n    args:\n      - serve\n      - --stdio\n"
	want := strings.Replace(before, "    available_tools: [list_issues, get_issue]\n", "    available_tools: [list_issues, get_issue]\n\n"+added, 1)
	if after != want {
		t.Fatalf("got\n%s\nwant\n%s", after, want)
	}
}

func TestReplaceKeepsWhatChronicleDoesNotOwn(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	entries, _ := pt.Read(p, loc)
	gh := entries[2]
	gh.Args = []secret.Value{secret.Literal("-y"), secret.Literal("@modelcontextprotocol/server-github@2.0.0")}
	tt.Replace(t, p, loc, gh)
	b := string(tt.ReadFile(t, loc.File))
	for _, want := range []string{"  # The token is in goose's keyring", "    name: GitHub\n", "    description: GitHub repositories and issues\n",
		"      - '@modelcontextprotocol/server-github@2.0.0'\n", "    env_keys:\n      - GITHUB_PERSONAL_ACCESS_TOKEN\n", "    timeout: 300\n"} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %q in\n%s", want, b)
		}
	}
	ctx := entries[3]
	ctx.Headers = map[string]secret.Value{"CONTEXT7_API_KEY": tt.Env("CONTEXT7_API_KEY")}
	tt.Replace(t, p, loc, ctx)
	b = string(tt.ReadFile(t, loc.File))
	for _, want := range []string{"enabled: false # off until the key is rotated", "CONTEXT7_API_KEY: ${CONTEXT7_API_KEY}", "env_keys:\n      - CONTEXT7_API_KEY"} {
		if !strings.Contains(b, want) {
			t.Errorf("missing %q in\n%s", want, b)
		}
	}
	if strings.Contains(b, "ctx7sk-FAKE") {
		t.Errorf("the plain-text key is still there:\n%s", b)
	}
}

// TestGooseSavingIsNotDrift: goose rewrites config.yaml with serde, adding
// its defaults and dropping comments; an extension that means the same
// hashes the same.
func TestGooseSavingIsNotDrift(t *testing.T) {
	chronicleWrote := "extensions:\n  x:\n    enabled: true\n    type: stdio\n    name: x\n    cmd: x\n    args: []\n"
	gooseSaved := "extensions:\n  x:\n    enabled: true\n    type: stdio\n    name: x\n    description: ''\n    cmd: x\n    args: []\n    envs: {}\n    env_keys: []\n    timeout: null\n    bundled: null\n    available_tools: []\n"
	var hashes []string
	for _, src := range []string{chronicleWrote, gooseSaved} {
		doc, err := New().Parse("config.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		entries, err := doc.Entries(provider.Location{}, nil)
		if err != nil || len(entries) != 1 {
			t.Fatalf("%v, %v", entries, err)
		}
		hashes = append(hashes, string(entries[0].Canonical))
	}
	if hashes[0] != hashes[1] {
		t.Fatalf("canonical forms differ:\n%s\n%s", hashes[0], hashes[1])
	}
}

func TestSecrets(t *testing.T) {
	env := func(k string, v secret.Value) provider.Entry {
		return provider.Entry{Name: "s", Enabled: true, Definition: service.Definition{Transport: service.Stdio, Command: "x", Env: map[string]secret.Value{k: v}}}
	}
	arg := provider.Entry{Name: "s", Enabled: true, Definition: service.Definition{Transport: service.Stdio, Command: "x", Args: []secret.Value{tt.Env("T")}}}
	sse := provider.Entry{Name: "s", Enabled: true, Definition: service.Definition{Transport: service.SSE, URL: secret.Literal("https://x/sse")}}
	file := provider.Entry{Name: "s", Enabled: true, Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal("https://x"),
		Headers: map[string]secret.Value{"K": secret.FromRef(secret.Ref{Kind: secret.KindFile, Name: "~/k"})}}}
	literal := provider.Entry{Name: "s", Enabled: true, Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal("https://x"),
		Headers: map[string]secret.Value{"A": secret.Concat(secret.Literal("$T and "), tt.Env("T"))}}}
	for _, tc := range []struct {
		e    provider.Entry
		want string
	}{
		{env("API_KEY", tt.Env("API_KEY")), "env_keys:\n  - API_KEY"},
		{env("api_key", tt.Env("API_KEY")), "env_keys:\n  - api_key"},
		{env("API_KEY", tt.Env("OTHER")), "name the variable API_KEY"},
		{env("API_KEY", secret.Concat(secret.Literal("Bearer "), tt.Env("API_KEY"))), "only whole"},
		{env("PATH", secret.Literal("/bin")), "refuses to set PATH"},
		{arg, "no variables in args"},
		{sse, "no longer runs SSE"},
		{file, "cannot read a secret from a file"},
		{literal, "would read the literal text"},
	} {
		out, err := New().Render(tc.e)
		got := string(out)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%v: got %s, want %q", tc.e.Definition, got, tc.want)
		}
	}
}

// TestBuiltinsAreNotTouched: goose's own extensions are not entries, and an
// edit does not replace or remove one.
func TestBuiltinsAreNotTouched(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	for _, ed := range []provider.Edit{pt.Unset(loc, "developer"), pt.Set(loc, provider.Entry{Name: "memory", Enabled: true,
		Definition: service.Definition{Transport: service.Stdio, Command: "x"}})} {
		_, err := pt.Edit(p, loc.File, ed)
		if err == nil || !strings.Contains(err.Error(), "builtin extension, not an MCP server") || !strings.Contains(err.Error(), loc.File) {
			t.Errorf("%s: got %v", ed.Name, err)
		}
	}
}

// TestUnparsable: a config.yaml goose could not read either is a
// *provider.ParseError naming the file and the line, and is not written.
func TestUnparsable(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	for _, tc := range []struct {
		src  string
		line int
	}{
		{"GOOSE_MODE: auto\nextensions:\n  x:\n    enabled: true\n   y: [\n", 3}, // the block with the problem
		{"extensions:\n  x:\n    type: stdio\n    cmd: x\n", 2},
		{"extensions:\n  x:\n    enabled: yes please\n    type: stdio\n", 2},
	} {
		tt.WriteFile(t, loc.File, tc.src)
		var pe *provider.ParseError
		if _, err := pt.Read(p, loc); !errors.As(err, &pe) || pe.File != loc.File || pe.Line != tc.line {
			t.Errorf("%q: got %v, want a *ParseError at line %d", tc.src, err, tc.line)
		}
		if err := pt.Put(p, loc, tt.NewEntry(false)); err == nil {
			t.Errorf("%q: written over", tc.src)
		}
		if b, _ := os.ReadFile(loc.File); string(b) != tc.src {
			t.Errorf("%q: the file changed", tc.src)
		}
	}
}

func TestRefusesFlowStyle(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	tt.WriteFile(t, loc.File, "extensions: {x: {type: stdio, enabled: true, cmd: x, args: []}}\n")
	_, err := pt.Edit(p, loc.File, pt.Unset(loc, "x"))
	if err == nil || !strings.Contains(err.Error(), loc.File) || !strings.Contains(err.Error(), "flow style") {
		t.Fatalf("got %v", err)
	}
}
