package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/tailscale/hujson"
)

// toolServers are the fixture home's tool files, each with the key path of
// its server map.
var toolServers = map[string][]string{
	".claude.json":                              {"mcpServers"},
	"work/api-server/.mcp.json":                 {"mcpServers"},
	".config/Claude/claude_desktop_config.json": {"mcpServers"},
	".cursor/mcp.json":                          {"mcpServers"},
	"work/api-server/.cursor/mcp.json":          {"mcpServers"},
	".gemini/settings.json":                     {"mcpServers"},
	"work/api-server/.gemini/settings.json":     {"mcpServers"},
	".codex/config.toml":                        {"mcp_servers"},
	"work/api-server/.codex/config.toml":        {"mcp_servers"},
	".config/Code/User/mcp.json":                {"servers"},
	"work/api-server/.vscode/mcp.json":          {"servers"},
	".codeium/windsurf/mcp_config.json":         {"mcpServers"},
	".config/zed/settings.json":                 {"context_servers"},
	"work/api-server/.zed/settings.json":        {"context_servers"},
	".config/opencode/opencode.json":            {"mcp"},
	"work/api-server/opencode.jsonc":            {"mcp"},
}

// TestInitThenApplyKeepsEveryKey is issue 22's takeover promise: init on
// the fixture home, then apply; every key of every tool entry that was
// there before is still there with its value (timeouts, tool lists and the
// keys chronicle does not model — OpenCode's timeout, Gemini's includeTools
// and trust, Codex's tool_timeout_sec, enabled_tools and
// startup_timeout_sec), except plain-text secrets, which became the tool's
// reference syntax.
func TestInitThenApplyKeepsEveryKey(t *testing.T) {
	bin := chronicleBinary(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	if out, err := exec.Command("bash", "../../testdata/fixtures/make-home.sh", home).CombinedOutput(); err != nil {
		t.Fatalf("make-home.sh: %v\n%s", err, out)
	}
	before := serversOf(t, home)
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "CODEX_HOME=", "CHRONICLE_HOME=", "CLAUDE_CONFIG_DIR=", "NO_COLOR=1")
	cfg := filepath.Join(root, "cfg")
	run(t, bin, root, env, 0, "init", cfg)
	plan := run(t, bin, cfg, env, 2, "plan", "--detailed-exitcode")
	for _, lost := range []string{`-  "timeout"`, `-tool_timeout_sec`, `-enabled_tools`, `-startup_timeout_sec`, `-  "includeTools"`, `-  "trust"`} {
		if strings.Contains(plan, lost) {
			t.Errorf("the first plan drops a key (%s):\n%s", lost, plan)
		}
	}
	// The entries the issue names are chronicle's now, not left alone.
	list := run(t, bin, cfg, env, 0, "state", "list")
	for _, tool := range []string{"opencode", "gemini", "codex", "windsurf", "cursor"} {
		if !strings.Contains(list, fmt.Sprintf(`[%q].service.chronova`, tool)) {
			t.Errorf("init did not take over %s's chronova entry:\n%s", tool, list)
		}
	}
	run(t, bin, cfg, env, 0, "apply", "--auto-approve")
	if out := run(t, bin, cfg, env, 0, "plan", "--detailed-exitcode"); !strings.Contains(out, "No changes") {
		t.Fatalf("the plan after apply is not clean:\n%s", out)
	}
	after := serversOf(t, home)

	var problems []string
	rewritten := 0
	for _, file := range sortedKeys(before) {
		for _, name := range sortedKeys(before[file]) {
			was, now := before[file][name], after[file][name]
			if now == nil {
				problems = append(problems, fmt.Sprintf("%s: entry %q is gone", file, name))
				continue
			}
			if !reflect.DeepEqual(was, now) {
				rewritten++
			}
			problems = append(problems, keptKeys(file+": "+name, was, now)...)
		}
	}
	if len(problems) > 0 {
		t.Fatalf("init then apply changed what it should have kept:\n%s", strings.Join(problems, "\n"))
	}
	if rewritten == 0 {
		t.Fatal("apply rewrote no entry: the test would not see a key dropped")
	}
	// The keys the issue names, by value.
	for _, c := range []struct {
		file, entry, key string
		want             any
	}{
		{".config/opencode/opencode.json", "chronova", "timeout", float64(10000)},
		{".gemini/settings.json", "chronova", "timeout", float64(30000)},
		{".gemini/settings.json", "chronova", "includeTools", []any{"get_productivity_summary", "get_recent_activity"}},
		{".codex/config.toml", "chronova", "tool_timeout_sec", int64(45)},
		{".codex/config.toml", "chronova", "enabled_tools", []any{"get_productivity_summary", "get_recent_activity", "get_ai_insights"}},
	} {
		if got := after[c.file][c.entry][c.key]; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s.%s = %#v, want %#v", c.file, c.entry, c.key, got, c.want)
		}
	}
}

// keptKeys compares one entry before and after: every key is still there
// with its value, or its value was a plain-text secret that became a
// reference.
func keptKeys(where string, was, now map[string]any) []string {
	var problems []string
	for _, k := range sortedKeys(was) {
		v, ok := now[k]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: key %q is gone (was %v)", where, k, was[k]))
		case reflect.DeepEqual(v, was[k]):
		default:
			old, oldMap := was[k].(map[string]any)
			cur, curMap := v.(map[string]any)
			if !oldMap || !curMap {
				problems = append(problems, fmt.Sprintf("%s: %q changed from %v to %v", where, k, was[k], v))
				continue
			}
			for _, name := range sortedKeys(old) {
				x, y := old[name], cur[name]
				switch {
				case reflect.DeepEqual(x, y):
				case plainSecret(x) && reference(y):
				default:
					problems = append(problems, fmt.Sprintf("%s: %s.%s changed from %v to %v", where, k, name, x, y))
				}
			}
			for _, name := range sortedKeys(cur) {
				if _, ok := old[name]; !ok {
					problems = append(problems, fmt.Sprintf("%s: %s.%s was added", where, k, name))
				}
			}
		}
	}
	return problems
}

// plainSecret reports whether a fixture value is one of its fake secrets.
func plainSecret(v any) bool {
	s, ok := v.(string)
	return ok && strings.Contains(s, "FAKE")
}

// reference reports whether a value holds a tool's reference to a variable.
func reference(v any) bool {
	s, ok := v.(string)
	return ok && !strings.Contains(s, "FAKE") && (strings.Contains(s, "${") || strings.Contains(s, "{env:"))
}

// envVars reads Codex's env_vars (variables passed under their own name)
// as env entries holding a reference, the way chronicle models them, so
// that a plain-text env value that became one compares as a reference.
func envVars(e map[string]any) map[string]any {
	names, ok := e["env_vars"].([]any)
	if !ok {
		return e
	}
	out := maps.Clone(e)
	delete(out, "env_vars")
	env, _ := out["env"].(map[string]any)
	env = maps.Clone(env)
	if env == nil {
		env = map[string]any{}
	}
	for _, n := range names {
		if s, ok := n.(string); ok {
			env[s] = "${" + s + "}"
		}
	}
	out["env"] = env
	return out
}

// serversOf reads every tool file's servers: file → entry → key → value.
func serversOf(t *testing.T, home string) map[string]map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]map[string]any{}
	for file, keyPath := range toolServers {
		src, err := os.ReadFile(filepath.Join(home, file))
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if strings.HasSuffix(file, ".toml") {
			if err := toml.Unmarshal(src, &doc); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		} else {
			std, err := hujson.Standardize(src)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if err := json.Unmarshal(std, &doc); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
		}
		var servers any = doc
		for _, k := range keyPath {
			m, _ := servers.(map[string]any)
			servers = m[k]
		}
		entries := map[string]map[string]any{}
		m, _ := servers.(map[string]any)
		for name, e := range m {
			entries[name], _ = e.(map[string]any)
			if strings.HasSuffix(file, ".toml") {
				entries[name] = envVars(entries[name])
			}
		}
		out[file] = entries
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
