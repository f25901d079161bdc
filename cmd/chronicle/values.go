package main

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

// commandLine renders a stdio command and its arguments on one line.
func commandLine(command string, args []secret.Value) string {
	parts := append([]string{command}, mask.ShownList(args)...)
	for i, p := range parts {
		if shown := scan.ShownText(p); shown != p {
			parts[i] = shown
		} else if p == "" || strings.ContainsAny(p, " \t\"'") {
			parts[i] = `"` + strings.ReplaceAll(p, `"`, `\"`) + `"`
		}
	}
	return strings.Join(parts, " ")
}
