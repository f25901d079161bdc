package plan

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// A VariableUse is an entry in a tool that reads an environment variable
// itself: chronicle wrote the reference in the tool's own syntax (${NAME}),
// and the tool resolves it when it starts the server.
type VariableUse struct {
	Variable string
	Entry    string // the entry's name in the tool
	Tool     string
}

// VariableUses returns the environment variables a definition refers to
// (secret("env:NAME")), as read by the entry name in tool, sorted.
func VariableUses(d service.Definition, entry, tool string) []VariableUse {
	var names []string
	add := func(v secret.Value) {
		for _, r := range v.Refs() {
			if r.Kind == secret.KindEnv && !slices.Contains(names, r.Name) {
				names = append(names, r.Name)
			}
		}
	}
	for _, a := range d.Args {
		add(a)
	}
	for _, v := range d.Env {
		add(v)
	}
	for _, v := range d.Headers {
		add(v)
	}
	add(d.URL)
	sort.Strings(names)
	out := make([]VariableUse, len(names))
	for i, n := range names {
		out[i] = VariableUse{Variable: n, Entry: entry, Tool: tool}
	}
	return out
}

// UnsetVariables returns one line per variable of uses that r finds
// neither in the environment nor in its env file, naming it and the
// entries that read it, never a value: "GITHUB_TOKEN is not set (neither
// in the environment nor in ~/.chronicle/env); github in claude reads it".
// plan, apply and sync show them as notes, doctor as its own lines.
func UnsetVariables(uses []VariableUse, r secret.Resolver, home string) []string {
	// Per variable, the tools of each entry that reads it.
	readers := map[string]map[string][]string{}
	for _, u := range uses {
		if readers[u.Variable] == nil {
			readers[u.Variable] = map[string][]string{}
		}
		if tools := readers[u.Variable][u.Entry]; !slices.Contains(tools, u.Tool) {
			readers[u.Variable][u.Entry] = append(tools, u.Tool)
		}
	}
	where := "(not in the environment)"
	if file := r.EnvFile; file != "" {
		if rel, err := filepath.Rel(home, file); home != "" && err == nil && !strings.HasPrefix(rel, "..") {
			file = "~/" + filepath.ToSlash(rel)
		}
		where = "(neither in the environment nor in " + file + ")"
	}
	var out []string
	for _, name := range sortedKeys(readers) {
		if r.IsSet(name) {
			continue
		}
		var who []string
		for _, entry := range sortedKeys(readers[name]) {
			tools := readers[name][entry]
			sort.Strings(tools)
			who = append(who, entry+" in "+joinAnd(tools))
		}
		verb := "reads"
		if len(who) > 1 {
			verb = "read"
		}
		out = append(out, name+" is not set "+where+"; "+strings.Join(who, "; ")+" "+verb+" it")
	}
	return out
}

// joinAnd joins items as a person lists them: a, b and c.
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// noteUnset adds a note per variable the entries the plan keeps in tools
// read and that is not set on this machine. Without a resolver (a plan
// computed with no environment) it says nothing.
func (b *builder) noteUnset() {
	r := b.in.Resolver
	if r.Env == nil && r.EnvFile == "" {
		return
	}
	for _, line := range UnsetVariables(b.variables, r, b.in.Env.Home) {
		b.note("", line, "")
	}
}
