//go:build unix

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/creack/pty"

	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// ptyConfig has one change of every kind that touches the machine: a
// central skill, a symlink, a tracked copy and an entry in a tool's file.
const ptyConfig = `
service "gh" {
  command = "npx"
}
skill "review" {
  source = "./skills/review"
}
skill "lint" {
  source = "./skills/lint"
}
link "links" {
  tools  = ["cursor"]
  skills = ["review"]
}
link "copies" {
  tools  = ["claude"]
  skills = ["review"]
  mode   = "copy"
}
link "direct" {
  tools    = ["windsurf"]
  services = ["gh"]
}
`

// TestChangedBetweenPlanAndYes runs apply on a terminal, and while it waits
// for "yes" changes one target the plan saw: that change fails with
// "<address>: <path> changed since the plan", nothing there is touched,
// every other change is made, and apply exits 1. One run per kind.
func TestChangedBetweenPlanAndYes(t *testing.T) {
	bin := chronicleBinary(t)
	for _, tc := range []struct {
		kind, addr, target string
		change             func(m *enginetest.Machine)
	}{
		{"entry", `link.direct["windsurf"].service.gh`, ".codeium/windsurf/mcp_config.json", func(m *enginetest.Machine) {
			m.Write(".codeium/windsurf/mcp_config.json", `{"mcpServers": {"gh": {"command": "theirs"}}}`)
		}},
		{"symlink", `link.links["cursor"].skill.review`, ".cursor/skills/review", func(m *enginetest.Machine) {
			m.Skill(m.Path(".cursor/skills"), "review", "The user's own.")
		}},
		{"copy", `link.copies["claude"].skill.review`, ".claude/skills/review", func(m *enginetest.Machine) {
			m.Skill(m.Path(".claude/skills"), "review", "The user's own.")
		}},
		{"skill", "skill.lint", ".chronicle/skills/lint", func(m *enginetest.Machine) {
			m.Skill(m.Path(".chronicle/skills"), "lint", "Not chronicle's.")
		}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			m := enginetest.New(t)
			m.Skill("skills", "review", "Review code.")
			m.Skill("skills", "lint", "Lint code.")
			m.Config(ptyConfig)
			cmd := exec.Command(bin, "apply")
			cmd.Dir = m.ConfigDir
			cmd.Env = append(os.Environ(), "HOME="+m.Home, "NO_COLOR=1", "CHRONICLE_HOME=")
			tty, err := pty.Start(cmd)
			if err != nil {
				t.Fatal(err)
			}
			defer tty.Close()
			out := bufio.NewReader(tty)
			var seen strings.Builder
			// Wait for the question: the plan has been made and shown.
			for !strings.Contains(seen.String(), "Only 'yes' will be accepted:") {
				b, err := out.ReadByte()
				if err != nil {
					t.Fatalf("apply ended before asking: %v\n%s", err, seen.String())
				}
				seen.WriteByte(b)
			}
			tc.change(m)
			target := m.Path(tc.target)
			before := enginetest.Snapshot(t, target)
			if _, err := tty.Write([]byte("yes\n")); err != nil {
				t.Fatal(err)
			}
			rest, _ := readAll(out)
			seen.WriteString(rest)
			err = cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("apply: %v, want exit 1\n%s", err, seen.String())
			}
			text := strings.ReplaceAll(seen.String(), "\r", "")
			if want := tc.addr + ": failed: " + tc.addr + ": " + target + " changed since the plan: "; !strings.Contains(text, want) {
				t.Fatalf("the output lacks %q:\n%s", want, text)
			}
			if got := enginetest.Snapshot(t, target); !enginetest.Equal(got, before) {
				t.Fatalf("%s was touched: %v, was %v", target, got, before)
			}
			// The others were made.
			for _, other := range []string{".cursor/skills/review", ".claude/skills/review", ".codeium/windsurf/mcp_config.json", ".chronicle/skills/review"} {
				if other == tc.target {
					continue
				}
				if _, err := os.Lstat(m.Path(other)); err != nil {
					t.Errorf("%s was not made: %v", other, err)
				}
			}
		})
	}
}

// readAll reads what the terminal still prints until apply closes it.
func readAll(r *bufio.Reader) (string, error) {
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String(), err
		}
	}
}
