package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fourToolHome writes a home where claude, cursor, gemini and windsurf have
// the same n servers; every tenth holds its token in plain text.
func fourToolHome(t *testing.T, home string, n int) {
	t.Helper()
	servers := map[string]any{}
	for i := range n {
		s := map[string]any{"command": "npx", "args": []string{"-y", fmt.Sprintf("@example/server-%03d", i)}}
		if i%10 == 0 {
			s["env"] = map[string]string{"API_TOKEN": fmt.Sprintf("tok-%03d-plaintextsecret", i)}
		}
		servers[fmt.Sprintf("server-%03d", i)] = s
	}
	write := func(rel string, doc any) {
		p := filepath.Join(home, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		b, _ := json.MarshalIndent(doc, "", "  ")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(".claude.json", map[string]any{"numStartups": 3, "mcpServers": servers})
	write(".cursor/mcp.json", map[string]any{"mcpServers": servers})
	write(".gemini/settings.json", map[string]any{"theme": "dark", "mcpServers": servers})
	write(".codeium/windsurf/mcp_config.json", map[string]any{"mcpServers": servers})
}

// On a home of 200 servers in four tools, init writes one link for the four
// tools, records all 800 entries, and the first plan shows only the twenty
// entries per tool holding a secret in plain text. Removing a tool from the
// link removes that tool's entries only; import takes over one identical
// entry and refuses one that differs.
func TestTakeoverOfAGeneratedHome(t *testing.T) {
	bin := chronicleBinary(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	fourToolHome(t, home, 200)
	env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "CODEX_HOME=", "CHRONICLE_HOME=", "NO_COLOR=1")
	cfg := filepath.Join(root, "cfg")
	out := run(t, bin, root, env, 0, "init", cfg)
	if !strings.Contains(out, "Recorded as chronicle's: 800 tool entries") {
		t.Fatalf("init:\n%s", out)
	}
	hcl, _ := os.ReadFile(filepath.Join(cfg, "chronicle.hcl"))
	if n := strings.Count(string(hcl), "\nlink "); n != 1 || !strings.Contains(string(hcl), `tools    = ["claude", "cursor", "gemini", "windsurf"]`) {
		t.Fatalf("%d links; want one for the four tools:\n%s", n, hcl[strings.Index(string(hcl), "\nlink "):])
	}
	run(t, bin, cfg, env, 0, "validate")
	plan := run(t, bin, cfg, env, 2, "plan", "--detailed-exitcode")
	if !strings.Contains(plan, "Plan: 0 to add, 80 to change, 0 to remove, 0 conflicts.") {
		t.Fatalf("first plan:\n%.3000s", plan)
	}
	if list := run(t, bin, cfg, env, 0, "state", "list"); strings.Count(list, ".service.server-") != 800 {
		t.Fatalf("state list shows %d adopted entries", strings.Count(list, ".service.server-"))
	}
	run(t, bin, cfg, env, 0, "apply", "--auto-approve")
	if b, _ := os.ReadFile(filepath.Join(home, ".cursor", "mcp.json")); strings.Contains(string(b), "plaintextsecret") {
		t.Fatal("a plain-text secret is still in cursor's file after apply")
	}

	// Removing windsurf from the link removes its 200 entries, nothing else.
	edited := strings.Replace(string(hcl), `["claude", "cursor", "gemini", "windsurf"]`, `["claude", "cursor", "gemini"]`, 1)
	os.WriteFile(filepath.Join(cfg, "chronicle.hcl"), []byte(edited), 0o644)
	plan = run(t, bin, cfg, env, 2, "plan", "--detailed-exitcode")
	if !strings.Contains(plan, "Plan: 0 to add, 0 to change, 200 to remove, 0 conflicts.") || strings.Contains(plan, `["cursor"].service.server-000`) {
		t.Fatalf("after removing windsurf:\n%.2000s", plan)
	}
	run(t, bin, cfg, env, 0, "apply", "--auto-approve")
	var ws struct {
		MCPServers map[string]any `json:"mcpServers"`
	}
	b, _ := os.ReadFile(filepath.Join(home, ".codeium", "windsurf", "mcp_config.json"))
	json.Unmarshal(b, &ws)
	var gem map[string]any
	b, _ = os.ReadFile(filepath.Join(home, ".gemini", "settings.json"))
	json.Unmarshal(b, &gem)
	if len(ws.MCPServers) != 0 || len(gem["mcpServers"].(map[string]any)) != 200 || gem["theme"] != "dark" {
		t.Fatalf("windsurf keeps %d servers, gemini %d", len(ws.MCPServers), len(gem["mcpServers"].(map[string]any)))
	}

	// import: state rm lets go of one entry; import takes it back as it is.
	addr := `link.claude-cursor-gemini-windsurf["cursor"].service.server-001`
	run(t, bin, cfg, env, 0, "state", "rm", addr)
	if got := run(t, bin, cfg, env, 2, "plan", "--detailed-exitcode"); !strings.Contains(got, "identical to the declared one") {
		t.Fatalf("after state rm:\n%s", got)
	}
	if got := run(t, bin, cfg, env, 0, "import", addr); !strings.Contains(got, "Imported "+addr) {
		t.Fatalf("import:\n%s", got)
	}
	run(t, bin, cfg, env, 0, "plan", "--detailed-exitcode")
	// An entry that differs is refused, with the difference.
	addr = `link.claude-cursor-gemini-windsurf["cursor"].service.server-002`
	run(t, bin, cfg, env, 0, "state", "rm", addr)
	b, _ = os.ReadFile(filepath.Join(home, ".cursor", "mcp.json"))
	os.WriteFile(filepath.Join(home, ".cursor", "mcp.json"), []byte(strings.Replace(string(b), "@example/server-002", "@example/other", 1)), 0o600)
	if got := run(t, bin, cfg, env, 1, "import", addr); !strings.Contains(got, "not imported") || !strings.Contains(got, "@example/other") {
		t.Fatalf("import of a different entry:\n%s", got)
	}
}
