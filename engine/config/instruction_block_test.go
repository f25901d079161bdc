package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// loadDir writes files into a temporary configuration folder and loads it.
func loadDir(t *testing.T, files map[string]string) (*Config, hcl.Diagnostics) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, _, diags := Load(dir, Options{Home: "/home/dev", Getenv: func(string) (string, bool) { return "", false }, KnownTools: testTools})
	return cfg, diags
}

func TestInstructionBlocks(t *testing.T) {
	cfg, diags := loadDir(t, map[string]string{
		"chronicle.hcl": `
rule "go-style" {
  source = "./rules/go-style.md"
  globs  = ["**/*.go"]
}
rule "always" {
  content = "Be brief.\r\n\r\n"
}
command "review" {
  source        = "./commands/review.md"
  argument_hint = "[file]"
}
agent "reviewer" {
  content = "You review code."
  description = "Reviews changes"
  tools = ["Read", "Grep"]
  model = "sonnet"
}
link "all" {
  tools    = ["claude", "codex"]
  rules    = ["*"]
  commands = ["review"]
  agents   = ["reviewer"]
}
`,
		"rules/go-style.md":  "---\ndescription: How we write Go\n---\n\n# Go\n\nUse gofmt.\n",
		"commands/review.md": "---\ndescription: Review a file\nargument-hint: \"[file]\"\n---\nReview $ARGUMENTS.\n",
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	g := cfg.Instruction("rule", "go-style")
	if g == nil || g.Description != "How we write Go" || g.Body != "# Go\n\nUse gofmt.\n" || !slices.Equal(g.Globs, []string{"**/*.go"}) || !strings.HasSuffix(g.Source, "rules/go-style.md") {
		t.Fatalf("go-style = %+v", g)
	}
	if a := cfg.Instruction("rule", "always"); a.Body != "Be brief.\n" || a.Source != "" {
		t.Fatalf("always = %+v", a)
	}
	if c := cfg.Instruction("command", "review"); c.Description != "Review a file" || c.ArgumentHint != "[file]" || c.Body != "Review $ARGUMENTS.\n" {
		t.Fatalf("review = %+v", c)
	}
	if a := cfg.Instruction("agent", "reviewer"); a.Model != "sonnet" || !slices.Equal(a.Tools, []string{"Read", "Grep"}) {
		t.Fatalf("reviewer = %+v", a)
	}
	k := cfg.Links[0]
	if got := cfg.LinkedInstructions(k, "rule"); len(got) != 2 {
		t.Fatalf("rules = * gives %d rules", len(got))
	}
	if !slices.Equal(k.Commands, []string{"review"}) || !slices.Equal(k.Agents, []string{"reviewer"}) {
		t.Fatalf("link = %+v", k)
	}
}

func TestInstructionErrors(t *testing.T) {
	big := strings.Repeat("x", 1<<20+1)
	cases := []struct {
		name    string
		hcl     string
		files   map[string]string
		summary string
		detail  string
	}{
		{"both", `rule "a" {
  source = "./a.md"
  content = "x"
}`, map[string]string{"a.md": "x"}, "Both source and content", `rule "a"`},
		{"neither", `command "a" { description = "d" }`, nil, "Missing source or content", `./commands/a.md`},
		{"missing source", `rule "a" { source = "./rules/a.md" }`, nil, "Cannot read the rule", "no such file"},
		{"not utf8", `rule "a" { source = "./a.md" }`, map[string]string{"a.md": "ok\nbad \xff here"}, "Source is not UTF-8 text", "line 2, column 5"},
		{"too large source", `rule "a" { source = "./a.md" }`, map[string]string{"a.md": big}, "Source too large", "1 MiB"},
		{"too large content", `rule "a" { content = "${file("./a.md")}${file("./a.md")}" }`, map[string]string{"a.md": big[:600000]}, "Text too large", "1 MiB"},
		{"invalid name", `rule "Go_Style" { content = "x" }`, nil, "Invalid rule name", "Go_Style"},
		{"front matter conflict", `command "a" {
  source = "./a.md"
  description = "Review"
}`, map[string]string{"a.md": "---\ndescription: Check\n---\nx\n"}, "Front matter contradicts the block", `"Review"`},
		{"agent name conflict", `agent "a" {
  source = "./a.md"
}`, map[string]string{"a.md": "---\nname: b\ndescription: d\n---\nx\n"}, "Front matter contradicts the block", `names it "b"`},
		{"agent description", `agent "a" { content = "x" }`, nil, "Agent without a description", `agent "a"`},
		{"marker in text", `rule "a" { content = "x\n<!-- chronicle:end rule.a -->\n" }`, nil, "Marker line in the text", "Line 2"},
		{"empty", `rule "a" { content = "---\ndescription: d\n---\n" }`, nil, "Empty rule", `rule "a"`},
		{"unclosed front matter", `rule "a" { content = "---\ndescription: d\n" }`, nil, "Invalid front matter", "no closing ---"},
		{"unknown rule", `rule "go-style" { content = "x" }
link "l" {
  tools = ["codex"]
  rules = ["go-styel"]
}`, nil, "Link to an undeclared rule", `Did you mean "go-style"?`},
		{"unknown agent", `link "l" {
  tools = ["codex"]
  agents = ["reviewer"]
}`, nil, "Link to an undeclared agent", `"reviewer"`},
		{"local scope", `rule "a" { content = "x" }
link "l" {
  tools = ["claude"]
  project = "/p"
  scope = "local"
  rules = ["a"]
}`, nil, "Instructions in the local scope", "rules, commands and agents"},
		{"duplicate", `rule "a" { content = "x" }
rule "a" { content = "y" }`, nil, `Duplicate rule "a"`, "already declared"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"chronicle.hcl": c.hcl}
			for k, v := range c.files {
				files[k] = v
			}
			_, diags := loadDir(t, files)
			for _, d := range diags {
				if d.Severity == hcl.DiagError && d.Summary == c.summary {
					if !strings.Contains(d.Detail, c.detail) {
						t.Fatalf("detail %q lacks %q", d.Detail, c.detail)
					}
					if d.Subject == nil || d.Subject.Filename == "" || d.Subject.Start.Line == 0 {
						t.Fatalf("%q has no range", d.Summary)
					}
					return
				}
			}
			t.Fatalf("no %q error in %s", c.summary, diags.Error())
		})
	}
}

func TestInstructionUnknownFrontMatterWarns(t *testing.T) {
	cfg, diags := loadDir(t, map[string]string{
		"chronicle.hcl": `agent "a" { source = "./a.md" }`,
		"a.md":          "---\ndescription: d\ncolor: blue\n---\nx\n",
	})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(diags) != 1 || diags[0].Severity != hcl.DiagWarning || !strings.Contains(diags[0].Detail, `"color"`) {
		t.Fatalf("diags = %s", diags.Error())
	}
	if cfg.Instruction("agent", "a").Description != "d" {
		t.Fatal("description from the front matter lost")
	}
}

func TestLinkWithOnlyInstructionsIsNotEmpty(t *testing.T) {
	_, diags := loadDir(t, map[string]string{"chronicle.hcl": `
command "c" { content = "x" }
link "l" {
  tools    = ["claude"]
  commands = ["c"]
}`})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
}

// A rule whose when is false on this machine is declared (a link may name
// it) but left out here, with the link's reference to it.
func TestInstructionWhen(t *testing.T) {
	cfg, diags := loadDir(t, map[string]string{"chronicle.hcl": `
rule "work" {
  content = "Use the work VPN."
  when    = false
}
rule "always" { content = "Be brief." }
link "l" {
  tools = ["codex"]
  rules = ["work", "always"]
}`})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if cfg.Instruction("rule", "work") != nil || cfg.Instruction("rule", "always") == nil {
		t.Fatalf("rules = %+v", cfg.Rules)
	}
	if k := cfg.Links[0]; !slices.Equal(k.Rules, []string{"always"}) {
		t.Fatalf("link rules = %v", k.Rules)
	}
	if len(cfg.Absent) != 1 || cfg.Absent[0].Address() != "rule.work" {
		t.Fatalf("absent = %+v", cfg.Absent)
	}
}

// claude_import keeps a CLAUDE.md importing AGENTS.md for the rules a link
// gives Claude Code; on a link with no rules it is an error at the
// attribute.
func TestClaudeImport(t *testing.T) {
	cfg, diags := loadDir(t, map[string]string{"chronicle.hcl": `
rule "style" {
  content = "Use gofmt."
}
link "p" {
  tools         = ["claude"]
  project       = "/home/dev/api"
  rules         = ["style"]
  claude_import = true
}
`})
	if diags.HasErrors() || !cfg.Links[0].ClaudeImport {
		t.Fatalf("claude_import not read: %v", diags)
	}
	_, diags = loadDir(t, map[string]string{"chronicle.hcl": `
link "p" {
  tools         = ["claude"]
  hub           = true
  claude_import = true
}
`})
	if !diags.HasErrors() || diags[0].Summary != "claude_import without rules" || diags[0].Subject.Start.Line != 5 {
		t.Fatalf("diags = %v", diags)
	}
}
