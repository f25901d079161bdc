package plan_test

import (
	"os"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// agentAndCommand declares an agent and a command and links them in
// project, through one link per tools list given (in that order).
func agentAndCommand(project string, tools ...string) string {
	text := `agent "reviewer" {
  content     = "You review code."
  description = "Reviews changes"
  tools       = ["Read", "Grep"]
}
command "review" {
  content     = "Review $ARGUMENTS."
  description = "Review a change"
}
`
	for i, t := range tools {
		text += "link \"l" + string(rune('a'+i)) + "\" {\n  tools = [" + t + "]\n  project = \"" + project + "\"\n  agents = [\"reviewer\"]\n  commands = [\"review\"]\n}\n"
	}
	return text
}

// fileChanges maps each path the plan writes or removes to its action and
// address, and lists the Read changes.
func fileChanges(p *plan.Plan) (map[string]string, []string) {
	files := map[string]string{}
	var reads []string
	for _, c := range p.Changes {
		if c.Kind != plan.KindFile {
			continue
		}
		if c.Action == plan.Read {
			reads = append(reads, c.Address+" "+c.Reason)
			continue
		}
		files[c.Path] = c.Action.Symbol() + " " + c.Address
	}
	return files, reads
}

// Copilot CLI reads a project's commands from .claude/commands and its
// agents from .claude/agents as well as .github/agents: a command or an
// agent linked to both Claude Code and Copilot is written once, in
// .claude, whatever the order of the links; an agent for Copilot alone
// goes to .github/agents, and moves out of it once Claude Code has it.
func TestCopilotReadsClaudeFolders(t *testing.T) {
	for _, order := range [][]string{{`"claude", "copilot"`}, {`"copilot"`, `"claude"`}} {
		m := enginetest.New(t)
		project := m.Path("work/api")
		if err := os.MkdirAll(project, 0o755); err != nil {
			t.Fatal(err)
		}
		p := m.Plan(m.Config(agentAndCommand(project, order...)))
		files, reads := fileChanges(p)
		agent, command := m.Path("work/api/.claude/agents/reviewer.md"), m.Path("work/api/.claude/commands/review.md")
		if len(files) != 2 || !strings.HasPrefix(files[agent], "+ ") || !strings.HasPrefix(files[command], "+ ") || len(reads) != 2 {
			t.Fatalf("links %v: files %v, reads %v:\n%s", order, files, reads, enginetest.Describe(p))
		}
		for _, r := range reads {
			if !strings.Contains(r, "the same file as") {
				t.Fatalf("read %q", r)
			}
		}
	}

	m := enginetest.New(t)
	project := m.Path("work/api")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	m.Converge(m.Config(agentAndCommand(project, `"copilot"`)))
	own := m.Path("work/api/.github/agents/reviewer.agent.md")
	if _, err := os.Stat(own); err != nil {
		t.Fatalf("Copilot's own agent file: %v", err)
	}
	if _, err := os.Stat(m.Path("work/api/.claude/commands/review.md")); err != nil {
		t.Fatalf("Copilot's command in .claude/commands: %v", err)
	}
	p := m.Converge(m.Config(agentAndCommand(project, `"copilot", "claude"`)))
	files, _ := fileChanges(p)
	if files[own] != `- link.la["copilot"].agent.reviewer` {
		t.Fatalf("Copilot's own agent file is not removed once Claude Code's is read: %v\n%s", files, enginetest.Describe(p))
	}
	if _, err := os.Stat(own); !os.IsNotExist(err) {
		t.Fatalf("%s is still there: %v", own, err)
	}
	if got := m.Read(m.Path("work/api/.claude/agents/reviewer.md")); !strings.Contains(got, "tools: Read, Grep") {
		t.Fatalf("Claude Code's agent file:\n%s", got)
	}
}
