package main

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

// shown renders a value for output: references as secret("env:X"), literal
// text masked when it looks secret (by the key it sits under, or its shape).
func shown(key string, v secret.Value) string {
	if ref, ok := v.OnlyRef(); ok {
		return ref.HCL()
	}
	if lit, ok := v.Literal(); ok {
		return mask.Named(key, lit)
	}
	s, _ := v.Render(mask.Value, func(r secret.Ref) (string, error) { return "${" + r.HCL() + "}", nil })
	return s
}

func shownList(vs []secret.Value) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = shown("", v)
	}
	return out
}

func shownMap(m map[string]secret.Value) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = shown(k, v)
	}
	return out
}

// commandLine renders a stdio command and its arguments on one line.
func commandLine(command string, args []secret.Value) string {
	parts := append([]string{command}, shownList(args)...)
	for i, p := range parts {
		if p == "" || strings.ContainsAny(p, " \t\"'") {
			parts[i] = `"` + strings.ReplaceAll(p, `"`, `\"`) + `"`
		}
	}
	return strings.Join(parts, " ")
}
