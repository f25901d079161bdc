package providers

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestInstructionFormats")

// samples are one of each kind with every field set; plain is a command
// whose body only some tools can spell.
var samples = map[string]instruction.Instruction{
	instruction.Rule: {Kind: instruction.Rule, Name: "go-style", Description: "How we write Go",
		Globs: []string{"**/*.go", "go.mod"}, Body: "# Go\n\nRun gofmt.\n"},
	instruction.Command: {Kind: instruction.Command, Name: "review", Description: "Review a change",
		ArgumentHint: "[file]", Body: "Review the staged change for bugs.\n"},
	instruction.Agent: {Kind: instruction.Agent, Name: "reviewer", Description: "Reviews changes",
		Tools: []string{"Read", "Grep"}, Model: "sonnet", Body: "You review code.\n"},
}

// TestInstructionFormats renders the samples in every place of every tool
// and compares with testdata/formats/<tool>-<kind>-<scope>.golden (the
// notes and refusals included), then reads the file back: what the tool
// holds comes back as it was declared.
func TestInstructionFormats(t *testing.T) {
	env := provider.Env{Home: "/h", Projects: []string{"/p"}, Getenv: func(string) (string, bool) { return "", false }}
	for _, p := range All(nil) {
		seen := map[string]bool{}
		for _, pl := range p.Instructions(env) {
			in := samples[pl.Kind]
			name := p.Name() + "-" + pl.Kind + "-" + pl.Scope
			if seen[name] {
				name += "-also" // a second folder the tool reads (Copilot's .claude/agents)
			}
			seen[name] = true
			t.Run(name, func(t *testing.T) {
				r := pl.Format.Render(in)
				var b strings.Builder
				b.Write(r.Content)
				for _, n := range r.Notes {
					b.WriteString("# note: " + n + "\n")
				}
				if r.Refused != "" {
					b.WriteString("# refused: " + r.Refused + "\n")
				}
				golden := filepath.Join("testdata", "formats", name+".golden")
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -run TestInstructionFormats ./providers -update)", err)
				}
				if b.String() != string(want) {
					t.Fatalf("rendered\n%s\nwant\n%s", b.String(), want)
				}
				if r.Refused != "" {
					return
				}
				back, err := pl.Format.Read(in.Name, r.Content)
				if err != nil {
					t.Fatalf("reading back: %v", err)
				}
				if back.Body != in.Body || back.Kind != in.Kind || back.Name != in.Name {
					t.Fatalf("read back %+v", back)
				}
				for _, f := range []struct {
					what      string
					got, want any
					same      bool
				}{
					{"description", back.Description, in.Description, back.Description == in.Description || (back.Description == "" && !strings.Contains(string(r.Content), "description"))},
					{"globs", back.Globs, in.Globs, slices.Equal(back.Globs, in.Globs) || back.Globs == nil},
					{"model", back.Model, in.Model, back.Model == in.Model || back.Model == ""},
					{"tools", back.Tools, in.Tools, slices.Equal(back.Tools, in.Tools) || (back.Tools == nil && len(r.Notes) > 0)},
				} {
					if !f.same {
						t.Errorf("%s read back as %v, declared %v", f.what, f.got, f.want)
					}
				}
			})
		}
	}
}

// TestCommandPlaceholders renders a command using $1 in each tool: the
// tools that cannot spell it refuse it and say why.
func TestCommandPlaceholders(t *testing.T) {
	env := provider.Env{Home: "/h", Getenv: func(string) (string, bool) { return "", false }}
	in := instruction.Instruction{Kind: instruction.Command, Name: "fix", Body: "Fix issue $1 ($ARGUMENTS).\n"}
	want := map[string]string{
		"claude":   "Fix issue $1 ($ARGUMENTS).\n",
		"codex":    "Fix issue $1 ($ARGUMENTS).\n",
		"opencode": "Fix issue $1 ($ARGUMENTS).\n",
		"vscode":   "Fix issue ${input:arg1} (${input:arguments}).\n",
		"gemini":   "refused: gemini has no way to spell $1 in a command",
		"cursor":   "refused: cursor has no way to spell $1, $ARGUMENTS in a command",
		"windsurf": "refused: windsurf has no way to spell $1, $ARGUMENTS in a command",
		// The tools of issue 23 that have command files (decision 0103).
		"antigravity": "refused: antigravity has no way to spell $1, $ARGUMENTS in a command",
		"kiro":        "refused: kiro has no way to spell $1, $ARGUMENTS in a command",
		"cline":       "refused: cline has no way to spell $1, $ARGUMENTS in a command",
		"junie":       "refused: junie has no way to spell $1 in a command",
	}
	for _, p := range All(nil) {
		for _, pl := range p.Instructions(env) {
			if pl.Kind != instruction.Command {
				continue
			}
			r := pl.Format.Render(in)
			got := string(r.Content)
			if r.Refused != "" {
				got = "refused: " + r.Refused
			}
			if got != want[p.Name()] {
				t.Errorf("%s: %q, want %q", p.Name(), got, want[p.Name()])
			}
		}
	}
}
