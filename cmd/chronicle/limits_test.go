package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLargeClaudeJSONIsRead: the input limits leave a real, large
// ~/.claude.json alone: scan reads every project's server from 2.2 MB.
func TestLargeClaudeJSONIsRead(t *testing.T) {
	home := gitHome(t)
	doc := largeClaudeJSON()
	if len(doc) < 2_200_000 {
		t.Fatalf("the generated file is %d bytes, want 2.2 MB", len(doc))
	}
	os.WriteFile(filepath.Join(home, ".claude.json"), doc, 0o600)
	out, errOut, code := runCLI(t, "scan", "--json")
	if code != 0 {
		t.Fatalf("scan exited %d: %s", code, errOut)
	}
	var got struct {
		Services []struct{ Tool, Name string }
		Errors   []json.RawMessage
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	claude := 0
	for _, s := range got.Services {
		if s.Tool == "claude" {
			claude++
		}
	}
	if claude != 301 || len(got.Errors) != 0 {
		t.Fatalf("%d claude servers (want 301), errors %s", claude, got.Errors)
	}
}

// TestBinaryConfigurationIsOneError: a binary file named *.hcl gives one
// short error naming it, not pages of diagnostics.
func TestBinaryConfigurationIsOneError(t *testing.T) {
	home := gitHome(t)
	dir := filepath.Join(home, "dots")
	os.MkdirAll(dir, 0o755)
	junk := make([]byte, 100<<10)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range junk {
		junk[i] = byte(rng.UintN(256))
	}
	junk[0] = 0xff
	os.WriteFile(filepath.Join(dir, "photo.hcl"), junk, 0o644)
	out, errOut, code := runCLI(t, "validate", "--chdir", dir)
	if code != 1 || !strings.Contains(errOut, "photo.hcl line 1") || !strings.Contains(errOut, "not UTF-8 text at line 1, column 1") || len(out)+len(errOut) > 1000 {
		t.Fatalf("validate of a binary *.hcl: exit %d, %d bytes of output:\n%.2000s%.2000s", code, len(out)+len(errOut), out, errOut)
	}
}

// TestManyDiagnosticsAreCut: the text form shows 50 diagnostics and says
// how many more there are.
func TestManyDiagnosticsAreCut(t *testing.T) {
	home := gitHome(t)
	dir := filepath.Join(home, "dots")
	writeConfig(t, dir, strings.Repeat("service \"x\" {\n  command = \"y\"\n}\n", 200))
	_, errOut, code := runCLI(t, "validate", "--chdir", dir)
	if code != 1 || strings.Count(errOut, "Duplicate service") != 50 || !strings.Contains(errOut, "… and 149 more diagnostics") {
		t.Fatalf("exit %d:\n%.3000s", code, errOut)
	}
}

// TestDeepToolFileIsAnError: a tool's JSONC file nested a million levels
// deep is reported by scan, naming the file, and the other tools are read.
func TestDeepToolFileIsAnError(t *testing.T) {
	home := gitHome(t)
	deep := "{\"mcpServers\": {\"x\": {\"command\": \"x\", \"args\": " + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + "}}}"
	os.WriteFile(filepath.Join(home, ".cursor", "mcp.json"), []byte(deep), 0o644)
	os.WriteFile(filepath.Join(home, ".claude.json"), []byte(`{"mcpServers": {"fine": {"command": "npx"}}}`), 0o600)
	out, errOut, _ := runCLI(t, "scan", "--json")
	want := `"file": "` + filepath.Join(home, ".cursor", "mcp.json") + `"`
	if !strings.Contains(out, want) || !strings.Contains(out, `mcp.json:1:`) || !strings.Contains(out+errOut, "nested deeper than 512 levels") || !strings.Contains(out, `"fine"`) {
		t.Fatalf("scan of a deep mcp.json:\n%.3000s\n%.3000s", out, errOut)
	}
}
