package plan

import (
	"fmt"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// A leftOut service is one that tools = ["*"] does not write into a tool
// because the tool cannot hold it as declared (see leavesOut).
type leftOut struct {
	service string
	why     string // short: "no syntax for secret references"
	err     error  // the provider's whole refusal
	removed bool   // chronicle wrote it there before: the removal path removes it
	hub     bool   // the link writes the hub entry, which reaches the service
	warns   bool   // naming the tool makes it a warning, not an error (oauthFields)
}

// leavesOut reports whether link l leaves service name out of tool: the
// tool came in through tools = ["*"] (not by name) and cannot hold entry e
// as declared — a secret it has no syntax for, a transport it lacks, any
// refusal of its Render. Machines differ in their tools; one that cannot
// hold a service must not fail the whole plan, so the service is left out
// there and noteLeftOut says so once per tool. A tool named in tools keeps
// the error (the user asked for that tool). The service is then not
// desired for the tool, so an entry chronicle wrote there before goes the
// way of any entry no longer declared: removed.
func (b *builder) leavesOut(l *config.Link, tool, name string, p provider.Provider, e provider.Entry) bool {
	if l.Names(tool) {
		return false
	}
	_, err := p.Render(e)
	if err == nil {
		return false
	}
	b.leaveOut(l, tool, name, cannotHold(p, e), err, false)
	return true
}

// leaveOut records that link l leaves service name out of tool, which
// came in through tools = ["*"], for why (a few words; err says it all):
// noteLeftOut says so once per tool. warns says that naming the tool in
// the link would make it a warning rather than an error.
func (b *builder) leaveOut(l *config.Link, tool, name, why string, err error, warns bool) {
	addr := linkAddress(l.Name, tool, "service."+name)
	if b.leftOut == nil {
		b.leftOut = map[string][]leftOut{}
	}
	for _, o := range b.leftOut[tool] {
		if o.service == name {
			return // another "*" link left it out already
		}
	}
	b.leftOut[tool] = append(b.leftOut[tool], leftOut{
		service: name, why: why, err: err, removed: b.entryRecord(addr) != nil, hub: l.Hub, warns: warns,
	})
}

// cannotHold says in a few words why p refuses e: it lacks the transport,
// it has no tool allow or deny list where e has one, it has no syntax for
// secret references at all, it cannot write these references, or
// (anything else) it cannot hold it as declared. It asks the
// provider, with small probe entries, rather than reading its error's text.
func cannotHold(p provider.Provider, e provider.Entry) string {
	if e.Transport != service.Stdio && e.Transport != "" {
		probe := provider.Entry{Name: e.Name, Enabled: true, Definition: service.Definition{Transport: e.Transport, URL: secret.Literal("https://probe.invalid/mcp")}}
		if _, err := p.Render(probe); err != nil {
			return "no " + e.Transport + " transport"
		}
	}
	for _, l := range []struct {
		what string
		on   bool
		set  func(*provider.Entry)
	}{
		{"no tool allow list", len(e.EnabledTools) > 0, func(x *provider.Entry) { x.EnabledTools = e.EnabledTools }},
		{"no tool deny list", len(e.DisabledTools) > 0, func(x *provider.Entry) { x.DisabledTools = e.DisabledTools }},
	} {
		if !l.on {
			continue
		}
		probe := provider.Entry{Name: e.Name, Enabled: true, Definition: service.Definition{Transport: service.Stdio, Command: "probe"}}
		l.set(&probe)
		if _, err := p.Render(probe); err != nil {
			return l.what
		}
	}
	switch {
	case !e.Definition.HasRefs():
		return "cannot hold it as declared"
	case !provider.CanReference(p):
		return "no syntax for secret references"
	}
	return "cannot write its secret references"
}

// noteLeftOut says once per tool which services tools = ["*"] leaves out
// of it and why, and how to reach them (the hub). Its first line names the
// tool, each service and the hub: a person reading a timer's log sees the
// whole story there.
func (b *builder) noteLeftOut() {
	for _, tool := range sortedKeys(b.leftOut) {
		list := b.leftOut[tool]
		var groups []string // "a, b (why)", in order of first appearance
		byWhy := map[string]int{}
		var removed, errs []string
		hub, named := true, "a warning"
		for _, o := range list {
			if !o.warns {
				named = "an error"
			}
			if i, ok := byWhy[o.why]; ok {
				groups[i] = strings.Replace(groups[i], " ("+o.why+")", ", "+o.service+" ("+o.why+")", 1)
			} else {
				byWhy[o.why] = len(groups)
				groups = append(groups, o.service+" ("+o.why+")")
			}
			if o.removed {
				removed = append(removed, o.service)
			}
			hub = hub && o.hub
			errs = append(errs, o.err.Error())
		}
		pronoun := "it"
		if len(list) > 1 {
			pronoun = "them"
		}
		summary := fmt.Sprintf("%s leaves out %s; reach %s through the hub: hub = true", tool, strings.Join(groups, ", "), pronoun)
		if hub {
			summary = fmt.Sprintf("%s leaves out %s; the hub entry (hub = true) reaches %s", tool, strings.Join(groups, ", "), pronoun)
		}
		switch len(removed) {
		case 0:
		case 1:
			summary += "; the entry chronicle wrote earlier for " + removed[0] + " is removed"
		default:
			summary += "; the entries chronicle wrote earlier for " + strings.Join(removed, ", ") + " are removed"
		}
		b.note("", summary,
			"tools = [\"*\"] writes into each tool present what it can hold; naming %s in tools makes this %s instead. %s.",
			tool, named, strings.Join(errs, "; "))
	}
}

// noteNoTools says that link l lists no tools on this machine: a tool list
// computed from the machine's facts may be empty on one machine, which is
// no error there (decision 0125); the link writes nothing here, and what it
// wrote before is removed like anything no longer declared.
func (b *builder) noteNoTools(l *config.Link) {
	b.note("link."+l.Name, "No tools for link "+l.Name+" on this machine",
		"The tools of link %q evaluate to an empty list here, so it writes nothing on this machine.", l.Name)
}
