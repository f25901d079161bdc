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
