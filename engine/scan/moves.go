package scan

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// A Move is a server that a tool whose vendor moved its users has and the
// tool they were moved to does not, at the same scope (a provider.Succession):
// a hint with the link that would keep both the same, never a change.
type Move struct {
	From, To string
	Scope    string // user, project or local, as in From
	Project  string // for project and local scope
	Name     string // the entry's name in From
	// Service is the declared service the entry is, "" when the
	// configuration declares none (adopt it first).
	Service string
	// Hub is set for chronicle's own hub entry: the link says hub = true.
	Hub bool
	// Cannot says why To cannot hold the server ("no syntax for secret
	// references"), "" when it can: the link then gives To the hub
	// entry, which reaches the server, never a link the plan would
	// refuse.
	Cannot string
}

// Link returns the link block that writes the server into both tools, on
// one line, with the project folder as Project spells it; or, when To
// cannot hold the server, the one that gives To the hub entry.
func (m Move) Link() string { return m.LinkAt(m.Project) }

// LinkAt is Link with the project folder spelled as project (a ~ path for
// people).
func (m Move) LinkAt(project string) string {
	parts := []string{fmt.Sprintf("tools = [%s, %s]", strconv.Quote(m.From), strconv.Quote(m.To))}
	if m.Cannot != "" {
		parts = []string{fmt.Sprintf("tools = [%s]", strconv.Quote(m.To))}
	}
	switch {
	case m.Hub || m.Cannot != "":
		parts = append(parts, "hub = true")
	default:
		name := m.Service
		if name == "" {
			name = m.Name
		}
		parts = append(parts, fmt.Sprintf("services = [%s]", strconv.Quote(name)))
	}
	if m.Project != "" {
		parts = append(parts, "project = "+strconv.Quote(project))
	}
	if m.Scope == provider.ScopeLocal {
		parts = append(parts, `scope = "local"`)
	}
	return "link { " + strings.Join(parts, " ") + " }"
}

// moves lists, for each succession whose two tools were both scanned and
// read without error, the enabled servers of the old tool its successor
// lacks at the same scope and project. An entry counts as present in the successor
// under its own name or under the name of the service it was declared as.
func moves(r Result, opts Options) []Move {
	failed := map[string]bool{}
	for _, e := range r.Errors {
		failed[e.Tool] = true
	}
	type place struct{ tool, scope, project, name string }
	has := map[place]bool{}
	for _, s := range r.Services {
		has[place{s.Location.Tool, s.Location.Scope, s.Location.Project, s.Entry.Name}] = true
	}
	tools := map[string]provider.Provider{}
	for _, p := range opts.Tools {
		tools[p.Name()] = p
	}
	var out []Move
	for _, succ := range opts.Successions {
		if !selected(succ.From, opts.Only) || !selected(succ.To, opts.Only) || failed[succ.To] {
			continue
		}
		for _, s := range r.Services {
			loc, e := s.Location, s.Entry
			if loc.Tool != succ.From || s.Status == StatusInvalid || !e.Enabled {
				// A server switched off in the old tool is not in use:
				// a link would switch it on there.
				continue
			}
			m := Move{From: succ.From, To: succ.To, Scope: loc.Scope, Project: loc.Project, Name: e.Name, Hub: e.Name == names.Hub}
			declared := e
			if svc := opts.declared.Of(loc.Tool, e.Name); svc != nil {
				m.Service = svc.Name
				declared.Definition = svc.Definition
			}
			if !m.Hub {
				m.Cannot = cannotHold(tools[succ.To], declared)
			}
			at := place{succ.To, loc.Scope, loc.Project, e.Name}
			named := place{succ.To, loc.Scope, loc.Project, m.Service}
			if has[at] || (m.Service != "" && has[named]) {
				continue
			}
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b Move) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To), cmp.Compare(a.Project, b.Project),
			cmp.Compare(a.Scope, b.Scope), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// cannotHold says why the successor p cannot hold the server e as
// chronicle would declare it, or "". A secret — a reference, or a
// secret-looking literal that adopt turns into one — needs a tool with a
// syntax for secret references; anything else p's Render refuses (a
// transport it lacks) is said in p's words.
func cannotHold(p provider.Provider, e provider.Entry) string {
	if p == nil {
		return ""
	}
	if holdsSecret(e.Definition) && !provider.CanReference(p) {
		return "no syntax for secret references"
	}
	if _, err := p.Render(e); err != nil {
		return err.Error()
	}
	return ""
}

// holdsSecret reports whether d holds a secret: a reference, or an env or
// header value the masker hides (a secret-looking literal).
func holdsSecret(d service.Definition) bool {
	if d.HasRefs() {
		return true
	}
	for _, m := range []map[string]secret.Value{d.Env, d.Headers} {
		for k, v := range m {
			if lit, ok := v.Literal(); ok && lit != "" && mask.Named(k, lit) != lit {
				return true
			}
		}
	}
	return false
}
