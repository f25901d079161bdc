package providers

import (
	"fmt"
	"sort"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// sharedPaths are the files that more than one tool reads, as the cells of
// docs/providers.md name them: each must render alike in every tool (the
// plan refuses two texts for one file or one block), and read back alike
// (adopt takes one item, not one per tool).
var sharedPaths = map[string][]string{
	"/p/AGENTS.md":         {"codex", "opencode", "goose", "amp", "junie", "zed", "agents"},
	"/p/CLAUDE.md":         {"claude", "zed", "amp"},
	"/p/AGENT.md":          {"zed", "amp"},
	"/p/GEMINI.md":         {"gemini", "zed"},
	"/h/.gemini/GEMINI.md": {"gemini", "antigravity"},
	"/p/.github/instructions/NAME.instructions.md":  {"vscode", "copilot"},
	"/h/.copilot/instructions/NAME.instructions.md": {"vscode", "copilot"},
	"/p/.github/agents/NAME.agent.md":               {"vscode", "copilot"},
	"/h/.copilot/agents/NAME.agent.md":              {"vscode", "copilot"},
	"/p/.agents/agents/NAME.md":                     {"antigravity", "goose"},
	"/p/.claude/commands/NAME.md":                   {"claude", "copilot"},
	"/p/.claude/agents/NAME.md":                     {"claude", "copilot"},
}

// TestSharedPlacesRenderAlike finds every file two tools read and checks
// that each renders every sample to the same bytes and reads them back to
// the same instruction.
func TestSharedPlacesRenderAlike(t *testing.T) {
	env := provider.Env{Home: "/h", Projects: []string{"/p"}, Getenv: func(string) (string, bool) { return "", false }}
	byPath := map[string][]provider.Place{}
	for _, p := range All(nil) {
		for _, pl := range p.Instructions(env) {
			paths := pl.Files
			if !pl.Shared() {
				paths = []string{pl.Path("NAME")}
			}
			for _, path := range paths {
				byPath[path] = append(byPath[path], pl)
			}
		}
	}
	got := map[string][]string{}
	for path, places := range byPath {
		if len(places) < 2 {
			continue
		}
		for _, pl := range places {
			got[path] = append(got[path], pl.Tool)
		}
		first := places[0]
		for _, pl := range places[1:] {
			if pl.Kind != first.Kind {
				t.Errorf("%s: %s reads %ss there, %s reads %ss", path, first.Tool, first.Kind, pl.Tool, pl.Kind)
				continue
			}
			in := samples[pl.Kind]
			a, b := first.Format.Render(in), pl.Format.Render(in)
			if a.Refused != "" || b.Refused != "" {
				continue // a tool that cannot hold it writes nothing: no second text
			}
			if string(a.Content) != string(b.Content) {
				t.Errorf("%s: %s and %s render %s %s differently:\n%s\n---\n%s", path, first.Tool, pl.Tool, in.Kind, in.Name, a.Content, b.Content)
				continue
			}
			ra, errA := first.Format.Read(in.Name, a.Content)
			rb, errB := pl.Format.Read(in.Name, b.Content)
			if errA != nil || errB != nil || !ra.Equal(rb) {
				t.Errorf("%s: %s and %s read %s %s back differently: %+v (%v) / %+v (%v)", path, first.Tool, pl.Tool, in.Kind, in.Name, ra, errA, rb, errB)
			}
		}
	}
	for path, tools := range got {
		sort.Strings(tools)
		want := append([]string(nil), sharedPaths[path]...)
		sort.Strings(want)
		if fmt.Sprint(tools) != fmt.Sprint(want) {
			t.Errorf("%s is read by %v, want %v (update sharedPaths and docs/providers.md)", path, tools, want)
		}
	}
	for path := range sharedPaths {
		if _, ok := got[path]; !ok {
			t.Errorf("%s is no longer shared", path)
		}
	}
}
