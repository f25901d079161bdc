package claude

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
)

// largeHome writes a home whose ~/.claude.json is about 2.2 MB with 300
// projects, as Claude Code's file grows with its history (the generator of
// cmd/chronicle's BenchmarkScanLargeClaudeJSON), ten of which have a
// .mcp.json, whose approvals are in ~/.claude.json.
func largeHome(b *testing.B) provider.Env {
	home := b.TempDir()
	var doc strings.Builder
	doc.WriteString(`{"numStartups": 10, "mcpServers": {"s": {"command": "npx"}}, "projects": {`)
	for p := range 300 {
		if p > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `%q: {"history": [`, fmt.Sprintf("%s/work/p%d", home, p))
		for h := range 30 {
			if h > 0 {
				doc.WriteString(",")
			}
			fmt.Fprintf(&doc, `{"display": %q}`, strings.Repeat("x", 200))
		}
		fmt.Fprintf(&doc, `], "mcpServers": {"l%d": {"command": "x"}}}`, p)
	}
	doc.WriteString("}}")
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(doc.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	for p := range 10 {
		dir := filepath.Join(home, "work", fmt.Sprintf("p%d", p))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers": {"m": {"command": "y"}}}`), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return provider.Env{Home: home, Getenv: func(string) (string, bool) { return "", false }}
}

// BenchmarkEntriesLargeClaudeJSON reads every location of that home as a
// scan does, with a fresh provider and View each time: Locations, then the
// user scope, 300 local scopes and 300 project files (ten present, the
// rest missing) through one View. "parse" is one parse of the file alone:
// the whole scan should cost about one parse, since Locations, the View and
// the approvals share it.
func BenchmarkEntriesLargeClaudeJSON(b *testing.B) {
	env := largeHome(b)
	file := filepath.Join(env.Home, ".claude.json")
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := New().Parse(file, src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			p := New()
			view := toolfile.NewView(fsys.OS{})
			n := 0
			for _, loc := range p.Locations(env) {
				entries, err := view.Entries(p, loc)
				if err != nil && !errors.Is(err, provider.ErrNotConfigured) {
					b.Fatal(err)
				}
				n += len(entries)
			}
			if n != 311 {
				b.Fatalf("%d entries, want 311", n)
			}
		}
	})
}

// BenchmarkEdit sets n new servers in the user scope of a realistic
// ~/.claude.json in one Edit of the provider's document, as apply's file
// transaction does: encoding, the splice and the verification.
func BenchmarkEdit(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(tt.Fixtures, "claude-code/home/.claude.json"))
	if err != nil {
		b.Fatal(err)
	}
	file := "/home/dev/.claude.json"
	doc, err := New().Parse(file, src)
	if err != nil {
		b.Fatal(err)
	}
	loc := provider.Location{Tool: tool, Scope: provider.ScopeUser, File: file, KeyPath: []string{"mcpServers"}}
	for _, n := range []int{1, 250, 2000} {
		edits := make([]provider.Edit, n)
		for i := range edits {
			e := tt.NewEntry(true)
			e.Name = fmt.Sprintf("svc-%04d", i)
			edits[i] = provider.Edit{Location: loc, Name: e.Name, Entry: &e}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := doc.Edit(edits); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
