package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/scan"
)

// writeInstructionsText lists the rules, commands and agents the tools
// have: one line per file, root files with the tools that read them and
// chronicle's blocks in them.
func writeInstructionsText(w io.Writer, items []scan.Instruction, home string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintln(w, "Rules, commands and agents")
	for _, in := range items {
		tools := strings.Join(append([]string{in.Tool}, in.SharedWith...), ", ")
		where := in.Scope
		if in.Project != "" {
			where = "project " + tildePath(home, in.Project)
		}
		name := safeName(in.Name)
		if in.Root {
			name = "(root file)"
		}
		line := fmt.Sprintf("    %s\t%s\t%s\t%s\t%s\t%s", tools, in.Kind, name, where, tildePath(home, in.Path), in.Status)
		if len(in.Blocks) > 0 {
			line += fmt.Sprintf(" (+ chronicle's %s)", strings.Join(in.Blocks, ", "))
		}
		if in.Reason != "" {
			line += "\t" + in.Reason
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w)
}
