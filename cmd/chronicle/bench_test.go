package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/apply"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/providers"
)

// generatedHome makes a home and a configuration with n services written
// straight into Cursor and m skills linked into Cursor and Gemini.
func generatedHome(b *testing.B, n, m int) (cfg *config.Config, in plan.Inputs, st *state.State, home string) {
	b.Helper()
	home = b.TempDir()
	dir := filepath.Join(home, "dots")
	var hcl strings.Builder
	var names []string
	for i := range n {
		name := fmt.Sprintf("svc-%04d", i)
		names = append(names, `"`+name+`"`)
		fmt.Fprintf(&hcl, "service %q {\n  command = \"npx\"\n  args = [\"-y\", \"pkg-%d\"]\n  env = { TOKEN = secret(\"env:T%d\") }\n}\n", name, i, i)
	}
	for i := range m {
		name := fmt.Sprintf("skill-%04d", i)
		sd := filepath.Join(dir, "skills", name)
		os.MkdirAll(sd, 0o755)
		os.WriteFile(filepath.Join(sd, "SKILL.md"), []byte("---\nname: "+name+"\ndescription: generated\n---\nbody\n"), 0o644)
		fmt.Fprintf(&hcl, "skill %q {\n  source = \"./skills/%s\"\n}\n", name, name)
	}
	fmt.Fprintf(&hcl, "link \"s\" {\n  tools = [\"cursor\", \"gemini\"]\n  skills = [\"*\"]\n}\n")
	if n > 0 {
		fmt.Fprintf(&hcl, "link \"d\" {\n  tools = [\"cursor\"]\n  services = [%s]\n}\n", strings.Join(names, ", "))
	}
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "chronicle.hcl"), []byte(hcl.String()), 0o644)
	cfg, _, diags := config.Load(dir, config.Options{Home: home, KnownTools: providers.Names()})
	if diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	tools := providers.All(nil)
	ch := filepath.Join(home, ".chronicle")
	in = plan.Inputs{Config: cfg, Tools: tools, Env: provider.Env{Home: home, Getenv: func(string) (string, bool) { return "", false }},
		StoreDir: filepath.Join(ch, "skills"), HubError: "not used"}
	st, err := state.Load(filepath.Join(ch, "state.json"))
	if err != nil {
		b.Fatal(err)
	}
	in.State = st
	return cfg, in, st, home
}

// BenchmarkPlanNoOp measures a plan with nothing to do, after an apply of
// N services and M skills (the apply is set-up, not timed).
func BenchmarkPlanNoOp(b *testing.B) {
	for _, size := range []struct{ n, m int }{{10, 10}, {200, 200}, {2000, 0}, {0, 2000}} {
		b.Run(fmt.Sprintf("services=%d/skills=%d", size.n, size.m), func(b *testing.B) {
			cfg, in, st, home := generatedHome(b, size.n, size.m)
			start := time.Now()
			p := plan.Compute(in)
			if _, err := apply.Apply(p, apply.Options{State: st, Tools: in.Tools, ChronicleHome: filepath.Join(home, ".chronicle"),
				StoreDir: in.StoreDir, SnapshotDir: filepath.Join(home, ".chronicle", "snapshots"), ConfigDir: cfg.Dir}); err != nil {
				b.Fatal(err)
			}
			applied := time.Since(start)
			b.ResetTimer()
			for b.Loop() {
				if p := plan.Compute(in); p.HasChanges() {
					b.Fatalf("a plan after apply has changes: %+v", p.Summary())
				}
			}
			b.ReportMetric(float64(applied.Milliseconds()), "setup-apply-ms")
		})
	}
}

// largeClaudeJSON is a ~/.claude.json of about 2.2 MB with 300 projects,
// each with a history and one server, as Claude Code's file grows with use.
func largeClaudeJSON() []byte {
	var doc strings.Builder
	doc.WriteString(`{"numStartups": 10, "mcpServers": {"s": {"command": "npx"}}, "projects": {`)
	for p := range 300 {
		if p > 0 {
			doc.WriteString(",")
		}
		fmt.Fprintf(&doc, `%q: {"history": [`, fmt.Sprintf("/home/dev/work/p%d", p))
		for h := range 34 {
			if h > 0 {
				doc.WriteString(",")
			}
			fmt.Fprintf(&doc, `{"display": %q, "pastedContents": {}}`, strings.Repeat("x", 200))
		}
		fmt.Fprintf(&doc, `], "mcpServers": {"l%d": {"command": "x"}}}`, p)
	}
	doc.WriteString("}}")
	return []byte(doc.String())
}

// BenchmarkScanLargeClaudeJSON scans a home whose ~/.claude.json is
// largeClaudeJSON.
func BenchmarkScanLargeClaudeJSON(b *testing.B) {
	home := b.TempDir()
	os.WriteFile(filepath.Join(home, ".claude.json"), largeClaudeJSON(), 0o600)
	b.Setenv("HOME", home)
	b.Setenv("XDG_CONFIG_HOME", "")
	b.Chdir(home)
	for b.Loop() {
		a := newApp(strings.NewReader(""), io.Discard, io.Discard)
		if code := a.run([]string{"scan", "--json"}); code != 0 {
			b.Fatalf("scan exited %d", code)
		}
	}
}
