package providers

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// cells maps tool, kind and scope to the file each cell writes: a shared
// file ("AGENTS.md"), or a folder's file for an item named NAME. A cell
// not listed has no place: a plan note, nothing written. It is the table
// of docs/providers.md, checked against the providers.
var cells = map[string]string{
	"claude rule user":         "/h/.claude/CLAUDE.md",
	"claude rule project":      "/p/CLAUDE.md (imports /p/AGENTS.md with @AGENTS.md)",
	"claude command user":      "/h/.claude/commands/NAME.md",
	"claude command project":   "/p/.claude/commands/NAME.md",
	"claude agent user":        "/h/.claude/agents/NAME.md",
	"claude agent project":     "/p/.claude/agents/NAME.md",
	"cursor rule project":      "/p/.cursor/rules/NAME.mdc",
	"cursor command user":      "/h/.cursor/commands/NAME.md",
	"cursor command project":   "/p/.cursor/commands/NAME.md",
	"cursor agent user":        "/h/.cursor/agents/NAME.md",
	"cursor agent project":     "/p/.cursor/agents/NAME.md",
	"gemini rule user":         "/h/.gemini/GEMINI.md",
	"gemini rule project":      "/p/GEMINI.md",
	"gemini command user":      "/h/.gemini/commands/NAME.toml",
	"gemini command project":   "/p/.gemini/commands/NAME.toml",
	"gemini agent user":        "/h/.gemini/agents/NAME.md",
	"gemini agent project":     "/p/.gemini/agents/NAME.md",
	"codex rule user":          "/h/.codex/AGENTS.md",
	"codex rule project":       "/p/AGENTS.md",
	"codex command user":       "/h/.codex/prompts/NAME.md",
	"codex agent user":         "/h/.codex/agents/NAME.toml",
	"codex agent project":      "/p/.codex/agents/NAME.toml",
	"vscode rule user":         "/h/.copilot/instructions/NAME.instructions.md",
	"vscode rule project":      "/p/.github/instructions/NAME.instructions.md",
	"vscode command user":      "/h/.config/Code/User/prompts/NAME.prompt.md",
	"vscode command project":   "/p/.github/prompts/NAME.prompt.md",
	"vscode agent user":        "/h/.copilot/agents/NAME.agent.md",
	"vscode agent project":     "/p/.github/agents/NAME.agent.md",
	"windsurf rule user":       "/h/.codeium/windsurf/memories/global_rules.md",
	"windsurf rule project":    "/p/.windsurf/rules/NAME.md",
	"windsurf command user":    "/h/.codeium/windsurf/global_workflows/NAME.md",
	"windsurf command project": "/p/.windsurf/workflows/NAME.md",
	"zed rule user":            "/h/.config/zed/AGENTS.md",
	"zed rule project":         "/p/.rules, /p/.cursorrules, /p/.windsurfrules, /p/.clinerules, /p/.github/copilot-instructions.md, /p/AGENT.md, /p/AGENTS.md, /p/CLAUDE.md, /p/GEMINI.md",
	"opencode rule user":       "/h/.config/opencode/AGENTS.md",
	"opencode rule project":    "/p/AGENTS.md",
	"opencode command user":    "/h/.config/opencode/commands/NAME.md",
	"opencode command project": "/p/.opencode/commands/NAME.md",
	"opencode agent user":      "/h/.config/opencode/agents/NAME.md",
	"opencode agent project":   "/p/.opencode/agents/NAME.md",
	"agents rule project":      "/p/AGENTS.md",
	// The tools of issue 23 (decision 0103).
	"antigravity rule user":       "/h/.gemini/GEMINI.md",
	"antigravity rule project":    "/p/.agents/rules/NAME.md",
	"antigravity command user":    "/h/.gemini/config/global_workflows/NAME.md",
	"antigravity command project": "/p/.agents/workflows/NAME.md",
	"antigravity agent user":      "/h/.gemini/config/agents/NAME.md",
	"antigravity agent project":   "/p/.agents/agents/NAME.md",
	"devin rule user":             "/h/.config/devin/AGENTS.md",
	"devin rule project":          "/p/.devin/rules/NAME.md",
	"devin agent user":            "/h/.config/devin/agents/NAME/AGENT.md",
	"devin agent project":         "/p/.devin/agents/NAME/AGENT.md",
	"copilot rule user":           "/h/.copilot/instructions/NAME.instructions.md",
	"copilot rule project":        "/p/.github/instructions/NAME.instructions.md",
	"copilot agent user":          "/h/.copilot/agents/NAME.agent.md",
	"copilot agent project":       "/p/.github/agents/NAME.agent.md; also /p/.claude/agents/NAME.md",
	"copilot command project":     "/p/.claude/commands/NAME.md",
	"kiro rule user":              "/h/.kiro/steering/NAME.md",
	"kiro rule project":           "/p/.kiro/steering/NAME.md",
	"kiro command user":           "/h/.kiro/prompts/NAME.md",
	"kiro command project":        "/p/.kiro/prompts/NAME.md",
	"kiro agent user":             "/h/.kiro/agents/NAME.md",
	"kiro agent project":          "/p/.kiro/agents/NAME.md",
	"cline rule user":             "/h/Documents/Cline/Rules/NAME.md",
	"cline rule project":          "/p/.clinerules/NAME.md",
	"cline command user":          "/h/Documents/Cline/Workflows/NAME.md",
	"cline command project":       "/p/.clinerules/workflows/NAME.md",
	"goose rule user":             "/h/.config/goose/.goosehints",
	"goose rule project":          "/p/AGENTS.md",
	"goose agent user":            "/h/.agents/agents/NAME.md",
	"goose agent project":         "/p/.agents/agents/NAME.md",
	"amp rule user":               "/h/.config/amp/AGENTS.md",
	"amp rule project":            "/p/AGENTS.md, /p/AGENT.md, /p/CLAUDE.md",
	"junie rule user":             "/h/.junie/AGENTS.md",
	"junie rule project":          "/p/.junie/AGENTS.md, /p/AGENTS.md, /p/.junie/guidelines.md",
	"junie command user":          "/h/.junie/commands/NAME.md",
	"junie command project":       "/p/.junie/commands/NAME.md",
	"junie agent user":            "/h/.junie/agents/NAME.md",
	"junie agent project":         "/p/.junie/agents/NAME.md",
}

func describePlace(p provider.Place) string {
	if !p.Shared() {
		return p.Path("NAME")
	}
	s := strings.Join(p.Files, ", ")
	if p.Import != nil {
		s += fmt.Sprintf(" (imports %s with %s)", p.Import.File, p.Import.Line)
	}
	return s
}

func TestInstructionCells(t *testing.T) {
	env := provider.Env{Home: "/h", Projects: []string{"/p"}, Getenv: func(string) (string, bool) { return "", false }}
	got := map[string]string{}
	for _, p := range All(nil) {
		for _, pl := range p.Instructions(env) {
			key := fmt.Sprintf("%s %s %s", p.Name(), pl.Kind, pl.Scope)
			desc := describePlace(pl)
			if first, dup := got[key]; dup {
				// A second folder the tool reads items from; chronicle
				// writes at the first (decision 0152).
				desc = first + "; also " + desc
			}
			if pl.Tool != p.Name() || pl.Format == nil || !strings.HasPrefix(pl.Source, "https://") {
				t.Errorf("%s: tool %q, format %v, source %q", key, pl.Tool, pl.Format, pl.Source)
			}
			if (pl.Scope == provider.ScopeProject) != (pl.Project == "/p") {
				t.Errorf("%s: project %q", key, pl.Project)
			}
			got[key] = desc
		}
	}
	var keys []string
	for k := range cells {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := cells[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if got[k] != cells[k] {
			t.Errorf("%s: got %q, want %q", k, got[k], cells[k])
		}
	}
	for _, tool := range []string{"claude-desktop"} {
		for _, k := range instruction.Kinds {
			for _, s := range []string{"user", "project"} {
				if _, ok := got[tool+" "+k+" "+s]; ok {
					t.Errorf("%s has a %s place at %s level", tool, k, s)
				}
			}
		}
	}
}
