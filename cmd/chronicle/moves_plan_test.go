package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMovesNeverPlanErrors: on a home with every tool at once, each link
// scan suggests for a server a tool's successor lacks (Gemini CLI →
// Antigravity CLI, Windsurf → Devin CLI) plans without an error once the
// servers are declared: where the successor cannot hold the server (a
// secret, and no syntax for secret references) the hint gives it the hub.
func TestMovesNeverPlanErrors(t *testing.T) {
	home := everyToolHome(t)
	cfg := filepath.Join(home, "cfg")
	if err := os.Mkdir(cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(cfg)
	if out, stderr, code := runCLI(t, "adopt", "--tool", "gemini", "--tool", "windsurf"); code != 0 {
		t.Fatalf("adopt exited %d: %s\n%s", code, stderr, out)
	}
	out, stderr, code := runCLI(t, "scan", "--json")
	if code != 0 {
		t.Fatalf("scan exited %d: %s", code, stderr)
	}
	var got struct {
		Moves []struct {
			From, To, Name, Link, Cannot string
			Declared                     bool
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("scan --json is not JSON: %v", err)
	}
	var blocks []string
	seen := map[string]bool{} // one hub link serves every server it reaches
	hub := 0
	for i, m := range got.Moves {
		if !m.Declared {
			continue // declared first: adopt took the enabled servers
		}
		if m.Cannot != "" {
			hub++
			if !strings.Contains(m.Link, `tools = ["`+m.To+`"] hub = true`) {
				t.Errorf("move of %s to %s, which cannot hold it (%s), suggests %s", m.Name, m.To, m.Cannot, m.Link)
			}
		}
		if !seen[m.Link] {
			seen[m.Link] = true
			blocks = append(blocks, hclBlock(m.Link, fmt.Sprintf("move-%d", i)))
		}
	}
	if len(blocks) == 0 {
		t.Fatalf("no declared move: %+v", got.Moves)
	}
	if err := os.WriteFile(filepath.Join(cfg, "moves.hcl"), []byte(strings.Join(blocks, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = runCLI(t, "plan")
	if code != 0 || strings.Contains(out, "Error:") {
		t.Fatalf("plan with the suggested links exited %d: %s\n%s\n%s", code, stderr, out, strings.Join(blocks, "\n"))
	}
	if hub == 0 {
		t.Errorf("no move to the hub (the fixtures have servers with secrets in gemini and windsurf): %+v", got.Moves)
	}
}

// hclBlock turns a one-line link hint (link { tools = [...] hub = true })
// into a named block with one attribute a line, as HCL wants.
func hclBlock(hint, name string) string {
	s := strings.Replace(hint, "link { ", "link \""+name+"\" {\n  ", 1)
	for _, attr := range []string{"services", "hub", "project", "scope"} {
		s = strings.ReplaceAll(s, " "+attr+" = ", "\n  "+attr+" = ")
	}
	return strings.TrimSuffix(s, " }") + "\n}\n"
}
