package instr

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// globsLead starts the line that says which files a rule with globs
// applies to, in a file that has no other way to say it.
const globsLead = "Applies only to files matching "

// Root is the format of a rule's block in a shared root file (AGENTS.md,
// CLAUDE.md, GEMINI.md, .rules): its body as declared; a rule with globs
// gets one first line saying which files it applies to, since the file
// itself applies to everything.
type Root struct{}

// Render returns the block's body.
func (Root) Render(in instruction.Instruction) provider.Rendered {
	if len(in.Globs) == 0 {
		return provider.Rendered{Content: []byte(in.Body)}
	}
	quoted := make([]string, len(in.Globs))
	for i, g := range in.Globs {
		quoted[i] = "`" + g + "`"
	}
	return provider.Rendered{Content: []byte(globsLead + strings.Join(quoted, ", ") + ".\n\n" + in.Body)}
}

// Read reads a block's body (or a whole hand-written file) as a rule; the
// globs line Render writes is read back into Globs.
func (Root) Read(name string, src []byte) (instruction.Instruction, error) {
	in := instruction.Instruction{Kind: instruction.Rule, Name: name, Body: instruction.Normal(string(src))}
	first, rest, ok := strings.Cut(in.Body, "\n")
	list, isLead := strings.CutPrefix(first, globsLead)
	list, isEnd := strings.CutSuffix(list, ".")
	if !ok || !isLead || !isEnd {
		return in, nil
	}
	var globs []string
	for _, g := range strings.Split(list, ", ") {
		if len(g) < 3 || g[0] != '`' || g[len(g)-1] != '`' {
			return in, nil
		}
		globs = append(globs, g[1:len(g)-1])
	}
	in.Globs, in.Body = globs, instruction.Normal(rest)
	return in, nil
}
