package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/plan"
)

// writeContext says, for each tool a link writes the hub into, what the
// tool will see through the hub and what that costs its model's context,
// from the catalogue cache — or that the catalogue is not known yet.
func writeContext(w io.Writer, home string, costs []plan.ContextCost) {
	if len(costs) == 0 {
		return
	}
	known := false
	for _, c := range costs {
		known = known || !unknown(c.Seen)
	}
	if !known {
		fmt.Fprintln(w, "\nThrough the hub: the catalogue is not known yet, so what each tool will see is not either.")
		fmt.Fprintln(w, "  Run chronicle serve once: it caches what each service lists in ~/.chronicle/catalog.json.")
		return
	}
	fmt.Fprintln(w, "\nThrough the hub (from the catalogue chronicle serve cached):")
	for _, c := range costs {
		fmt.Fprintf(w, "  %s\n", sees(home, c.Tool, c.Project, c.Seen))
	}
}

// hubSees says what a tool sees through a hub entry scan found, or that
// the catalogue is not known yet.
func hubSees(home, tool string, s exposure.Seen) string {
	if unknown(s) {
		return "through the hub: the catalogue is not known yet (run chronicle serve once to measure it)"
	}
	return "through the hub, " + sees(home, tool, "", s)
}

// unknown reports whether nothing is known of what an endpoint offers: the
// catalogue cache lists none of its services.
func unknown(s exposure.Seen) bool { return !s.Known && s.Offered == 0 }

// sees says what a tool sees through one hub endpoint: "claude sees 41
// tools ≈ 18.2k tokens".
func sees(home, tool, project string, s exposure.Seen) string {
	who := tool
	var where []string
	if p, ok := strings.CutPrefix(s.Endpoint, "/mcp/profile/"); ok {
		where = append(where, "profile "+p)
	}
	if project != "" {
		where = append(where, "in "+tildePath(home, project))
	}
	if len(where) > 0 {
		who += " (" + strings.Join(where, ", ") + ")"
	}
	if s.NoProfile {
		return who + " sees nothing: the profile is not defined"
	}
	least := ""
	if !s.Known {
		least = "at least "
	}
	line := fmt.Sprintf("%s sees %s%s", who, least, toolsAndTokens(s.Tools, s.Tokens))
	if s.Mode == exposure.Search {
		line += fmt.Sprintf(" (search mode; the %d %s in full: %s)", s.Offered, plural(s.Offered, "tool", "tools"), kTokens(s.OfferedTokens))
	}
	if !s.Known {
		line += "; not listed yet: " + strings.Join(s.Unlisted, ", ")
	}
	return line
}
