package main

import (
	"fmt"
	"io"

	"github.com/chronicle-dev/chronicle/engine/scan"
)

// writeMoves prints, one line each, the servers a tool has whose vendor
// moved its users to a tool that lacks them, with the link that keeps both
// the same (scan.Move).
func writeMoves(w io.Writer, moves []scan.Move, home string) {
	if len(moves) == 0 {
		return
	}
	fmt.Fprintln(w, "\nServers the tools their vendors moved you to do not have yet:")
	for _, m := range moves {
		where := ""
		if m.Project != "" {
			where = " in " + tildePath(home, m.Project)
		}
		line := fmt.Sprintf("    %s has %q%s, %s does not: %s keeps both the same", m.From, m.Name, where, m.To, m.LinkAt(tildePath(home, m.Project)))
		if m.Cannot != "" {
			line = fmt.Sprintf("    %s has %q%s, %s cannot hold it (%s): %s reaches it through the hub", m.From, m.Name, where, m.To, m.Cannot, m.LinkAt(tildePath(home, m.Project)))
		}
		if m.Service == "" && !m.Hub {
			line += fmt.Sprintf(" (declare it first: chronicle adopt --tool %s)", m.From)
		}
		fmt.Fprintln(w, line)
	}
}
