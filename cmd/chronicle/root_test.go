package main

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestEveryCommandHasHelpAndExample walks the command tree: each command a
// user can run has a short description and an example.
func TestEveryCommandHasHelpAndExample(t *testing.T) {
	root := newApp(strings.NewReader(""), io.Discard, io.Discard).rootCommand()
	want := []string{"init", "adopt", "scan", "validate", "fmt", "plan", "apply", "show", "state", "backups", "skills", "sync", "serve", "chronova", "doctor", "version"}
	for _, name := range want {
		if c, _, err := root.Find([]string{name}); err != nil || c.Name() != name {
			t.Errorf("command %q missing", name)
		}
	}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Name() == "help" || sub.Name() == "completion" || sub.Parent().Name() == "completion" {
				continue
			}
			if sub.Short == "" {
				t.Errorf("%s has no short help", sub.CommandPath())
			}
			if sub.Runnable() && sub.Example == "" {
				t.Errorf("%s has no example", sub.CommandPath())
			}
			walk(sub)
		}
	}
	walk(root)
}

func TestTerraformFlags(t *testing.T) {
	got := strings.Join(terraformFlags([]string{"apply", "-auto-approve", "-chdir=x", "-C", "d", "-h", "--", "-literal-arg"}), " ")
	want := "apply --auto-approve --chdir=x -C d -h -- -literal-arg"
	if got != want {
		t.Fatalf("terraformFlags = %q, want %q", got, want)
	}
}

// TestHelpNamesEveryTool: chronicle --help names all 17 tools as their
// vendors do (providers.Products), each on one line, and no line is wider
// than 80 columns.
func TestHelpNamesEveryTool(t *testing.T) {
	var out strings.Builder
	root := newApp(strings.NewReader(""), &out, io.Discard).rootCommand()
	root.SetOut(&out)
	root.SetArgs([]string{"--help"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	help := out.String()
	for _, want := range []string{"Claude Code", "Claude Desktop", "Cursor", "Codex", "Gemini CLI", "Antigravity CLI", "VS Code",
		"Windsurf", "Devin", "Copilot CLI", "Kiro", "Zed", "OpenCode", "Cline", "Goose", "Amp and Junie"} {
		if !strings.Contains(help, want) {
			t.Errorf("--help does not name %q:\n%s", want, help)
		}
	}
	for _, line := range strings.Split(root.Long, "\n") {
		if len(line) > 80 {
			t.Errorf("line of %d columns: %q", len(line), line)
		}
	}
}
