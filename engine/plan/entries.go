package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/own"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/textdiff"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// serviceEntry plans one declared service written straight into a tool's
// MCP config, in that tool's own syntax.
func (b *builder) serviceEntry(l *config.Link, tool, name string, p provider.Provider) {
	addr := linkAddress(l.Name, tool, "service."+name)
	b.desired[addr] = true
	svc := b.cfg.Service(name)
	if svc == nil {
		b.diag("error", addr, "Cannot write the chronova service directly", "The built-in chronova service runs inside chronicle; offer it through the hub (link { hub = true }).")
		return
	}
	policy := b.policy(name)
	if !svc.Enabled || (policy != nil && policy.Enabled != nil && !*policy.Enabled) {
		// A disabled service is not written anywhere; one chronicle wrote
		// before is removed (see removals).
		delete(b.desired, addr)
		return
	}
	target := b.cfg.Target(name, tool)
	e, fromPolicy := ToolEntry(svc, policy, target, tool)
	if !b.ownedExtra(addr, p, target, &e) {
		if loc, ok := b.entryLocation(p, l.Project, l.Local); ok {
			b.entryClaims[locationKey(loc.File, loc.KeyPath, e.Name)] = addr // still declared: never removed for it
		}
		return
	}
	if !b.oauthFields(addr, tool, l, svc, &e) {
		delete(b.desired, addr)
		return
	}
	var deny []string // the tools denied by permission rules (rules.go)
	if fromPolicy {
		e, deny = b.policyLists(addr, tool, name, l, p, target, e)
	}
	if b.leavesOut(l, tool, name, p, e) {
		delete(b.desired, addr)
		return
	}
	b.unwrittenTimeout(addr, p, target, e)
	b.entry(addr, tool, l, p, e)
	if len(deny) > 0 {
		b.denyRules(addr, tool, l, p, e.Name, deny)
	}
}

// policyLists returns the entry e, whose tool lists come from a policy,
// as tool can hold it: unchanged when it holds the lists; else without
// them — with the tools it denies by a permission rule of their own
// (rules.go), and a warning for what applies only through the hub.
func (b *builder) policyLists(addr, tool, name string, l *config.Link, p provider.Provider, target *config.Target, e provider.Entry) (provider.Entry, []string) {
	_, refused := p.Render(e)
	if refused == nil {
		return e, nil
	}
	without := WithoutPolicyLists(e, target)
	denyDropped := !slices.Equal(without.DisabledTools, e.DisabledTools)
	allow := !slices.Equal(without.EnabledTools, e.EnabledTools)
	if !denyDropped && !allow {
		return e, nil
	}
	if _, err := p.Render(without); err != nil {
		return e, nil // refused for another reason: entry() says which
	}
	var deny, globs []string
	rules := false
	if denyDropped {
		deny, globs, rules = b.ruled(p, l, e.DisabledTools)
	}
	switch {
	case rules && (allow || len(globs) > 0):
		b.diag("warning", addr, "Policy not enforced by "+tool,
			"%s denies tools by name, one permission rule each, which chronicle writes; %s of policy %q applies only through the chronicle hub.", tool, notRuled(allow, globs), name)
	case !rules:
		b.diag("warning", addr, "Policy not enforced by "+tool,
			"%s has no field chronicle writes for tool allow or deny lists, so policy %q applies only through the chronicle hub (%v).", tool, name, refused)
	}
	return without, deny
}

// hubEntry plans the hub's entry in a tool: chronicle serve --stdio
// (with --profile when the link serves a profile), or with transport =
// "http" the running hub's URL — which carries a personal path and a
// daemon's address, so it is written only at user level or into a project
// file git ignores; elsewhere the stdio entry is written and the plan says
// why. With a service name (hub = "per-service": serviceHubEntry) the
// entry is that service's alone, named as the service, at
// link.L["tool"].hub.NAME: serve --stdio --service NAME, or the URL of
// /mcp/service/NAME.
func (b *builder) hubEntry(l *config.Link, tool string, p provider.Provider, svc string) {
	addr, name := linkAddress(l.Name, tool, "hub"), names.Hub
	if svc != "" {
		addr, name = linkAddress(l.Name, tool, "hub."+svc), svc
	}
	b.desired[addr] = true
	if l.Transport == config.TransportHTTP {
		why := b.httpRefused(l, p)
		if why == "" {
			d := b.hubHTTP(l, hubPath(l, svc))
			b.entry(addr, tool, l, p, provider.Entry{Name: name, Definition: d, Enabled: true})
			b.readableTokenFile(addr, l, p, d)
			return
		}
		b.diag("warning", addr, "Hub entry written as stdio, not http", "%s", why)
	}
	if len(b.in.HubCommand) == 0 {
		b.diag("error", addr, "Cannot write the hub entry", "%s", b.in.HubError)
		return
	}
	var args []secret.Value
	for _, a := range b.in.HubCommand[1:] {
		args = append(args, secret.Literal(a))
	}
	if l.Profile != "" {
		args = append(args, secret.Literal("--profile"), secret.Literal(l.Profile))
	}
	if svc != "" {
		args = append(args, secret.Literal("--service"), secret.Literal(svc))
	}
	e := provider.Entry{Name: name, Definition: service.Definition{Transport: service.Stdio, Command: b.in.HubCommand[0], Args: args}, Enabled: true}
	b.entry(addr, tool, l, p, e)
}

func (b *builder) policy(service string) *config.Policy {
	for _, p := range b.cfg.Policies {
		if p.Service == service {
			return p
		}
	}
	return nil
}

// entryLocation returns the config file a link writes entries to for a
// tool: user level, the project's file, or (local) the tool's entries for
// the project kept outside it.
func (b *builder) entryLocation(p provider.Provider, project string, local bool) (provider.Location, bool) {
	key := fmt.Sprint(p.Name(), "\x00", project, "\x00", local)
	if l, ok := b.locations[key]; ok {
		return l.loc, l.ok
	}
	if b.locations == nil {
		b.locations = map[string]located{}
	}
	loc, ok := entryLocation(p, b.in.Env, project, local)
	b.locations[key] = located{loc, ok}
	return loc, ok
}

func entryLocation(p provider.Provider, env provider.Env, project string, local bool) (provider.Location, bool) {
	if project != "" {
		env.Projects = []string{project}
	}
	want := provider.ScopeProject
	if local {
		want = provider.ScopeLocal
	}
	for _, loc := range p.Locations(env) {
		if loc.ReadOnly { // read for scan, never written
			continue
		}
		if project == "" && loc.Scope == provider.ScopeUser {
			return loc, true
		}
		if project != "" && loc.Scope == want && loc.Project == project {
			return loc, true
		}
	}
	return provider.Location{}, false
}

// entry plans one owned entry e at the file link l writes for the tool.
func (b *builder) entry(addr, tool string, l *config.Link, p provider.Provider, e provider.Entry) {
	project := l.Project
	loc, ok := b.entryLocation(p, project, l.Local)
	if !ok {
		if l.Local {
			b.diag("error", addr, "Tool has no local scope", "%s keeps no personal list of servers for project %s: scope = \"local\" is the one Claude Code (in ~/.claude.json) and Devin CLI (.devin/mcp_config.local.json) keep.", tool, project)
			return
		}
		b.diag("error", addr, "Tool has no MCP config", "%s keeps no MCP server list%s.", tool, where(project))
		return
	}
	// Claimed before anything can fail: an entry the declaration cannot
	// write now is still declared, never removed for it.
	key := locationKey(loc.File, loc.KeyPath, e.Name)
	if b.sameName(addr, key, e.Name, tool) {
		return
	}
	b.entryClaims[key] = addr
	tokenFile, masked := b.hubTokenOf(e)
	rendered, err := p.Render(masked)
	if err != nil {
		b.diag("error", addr, "Cannot write "+e.Name+" into "+tool, "%s", err)
		return
	}
	actual, f, err := b.view.Find(p, loc, e.Name)
	if err != nil {
		b.cannotRead(addr, tool, loc.File, err)
		return
	}
	before := observe.Found(f, actual)
	spec := &EntrySpec{Location: loc, Entry: e, Rendered: RenderedHash(rendered), HubToken: tokenFile}
	shown := e.Extra.Keys() // the extra keys a diff shows: those the write sets or removes
	c := Change{Address: addr, Kind: KindEntry, Path: loc.File, Entry: spec, Before: &before}
	recorded := b.records.EntryAt(loc.File, loc.KeyPath, e.Name)
	rec := own.EntryRecord(p, recorded, actual)
	if rec != nil && rec.Address != addr {
		spec.Takeover = rec.Address
	}
	owned := shown // the extra keys of chronicle's projection
	if recorded != nil {
		owned = recorded.Extra
		spec.DropExtra = dropped(recorded.Extra, p, e)
		shown = append(shown, spec.DropExtra...)
	}
	subject := entrySubject{b: b, addr: addr, tool: tool, p: p, want: e, rendered: rendered, found: actual, owned: owned, shown: shown}
	if actual != nil {
		resolved := provider.InProject(loc, *actual)
		subject.resolved = &resolved
	}
	d := own.Decide(own.Case{
		Address: addr, Subject: subject, Want: spec.Rendered, Record: rec,
		Replace: b.in.Replace[addr], Import: b.in.Import[addr], Ignored: b.ignored(addr),
		Intended: b.st.Intended(state.Intent{Address: addr, File: loc.File, Name: e.Name}),
		AsIs:     subject.asIs(), Commands: b.in.Commands,
	})
	b.decided(&c, d)
	switch stale := ""; {
	case c.Action == Create && c.Reason == "":
		c.Reason = b.hubTokenToMake(tokenFile)
	case c.Action == NoOp:
		// What the ledger sees is the entry with the hub's token masked;
		// the token it holds may be one a new token made stale.
		if stale = b.staleHubToken(tokenFile, *actual); stale != "" {
			c.Action, c.Reason = Update, stale
		}
	}
	spec.RecordOnly = d.RecordOnly
	if d.Rewrite {
		spec.Rendered = ""
	}
	b.fileConflict(&c, f)
	b.add(c)
}

// fileConflict turns a change to a tool file into a conflict when the file
// cannot be written the way chronicle writes (replaced atomically, mode,
// owner and group kept): it is hard-linked (replacing it would split the
// link), its owner cannot write it, or it belongs to another user.
func (b *builder) fileConflict(c *Change, f *toolfile.File) {
	if !c.Action.Changes() {
		return
	}
	facts := observe.Facts(f)
	if !facts.Exists {
		return
	}
	replace := b.in.Replace[c.Address]
	switch {
	case b.in.EUID > 0 && facts.UID >= 0 && facts.UID != b.in.EUID:
		c.Action, c.Reason = Conflict, fmt.Sprintf("%s belongs to user %d; chronicle, running as user %d, cannot write it and keep its owner (run chronicle as that user)", f.Path, facts.UID, b.in.EUID)
	case facts.Mode&0o200 == 0 && !replace:
		c.Action, c.Reason = Conflict, fmt.Sprintf("%s is read-only (mode %#o): chronicle does not write a file its owner cannot write; %s writes it and keeps the mode", f.Path, uint32(facts.Mode), b.in.Commands.Replace(c.Address))
	case facts.Links > 1 && !replace:
		c.Action, c.Reason = Conflict, fmt.Sprintf("%s is hard-linked, %d links: replacing it would split the link; %s writes it in place after a backup", f.Path, facts.Links, b.in.Commands.Replace(c.Address))
	case facts.Links > 1 && c.Entry == nil:
		// A rule's list is never written in place.
		c.Action, c.Reason = Conflict, fmt.Sprintf("%s is hard-linked, %d links: replacing it would split the link", f.Path, facts.Links)
	case facts.Links > 1:
		c.Entry.InPlace = true
	}
}

func (b *builder) entryRecord(addr string) *state.Entry { return b.records.Entry(addr) }

// entryDiff shows the tool's entry as it is against as it would be written.
// Of the keys chronicle does not model, it shows those of extra (what the
// write sets or removes); the others stay as they are and are not shown.
func (b *builder) entryDiff(addr string, p provider.Provider, actual provider.Entry, rendered []byte, extra []string) string {
	actual.Extra = actual.Extra.Only(extra)
	before, err := p.Render(actual)
	if err != nil {
		before = actual.Canonical
	}
	return b.maskDiff(textdiff.Unified(addr+" (in the tool)", addr+" (declared)", ensureNL(string(before)), ensureNL(string(rendered))))
}

func ensureNL(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// EntryName is the name a service's entry has in a tool: the service's name,
// or, in the tool it was adopted from, the name the tool gave it (origin
// "codex:user:weird.name"), so that adopting and applying reproduce the
// tool's file.
func EntryName(svc *service.Service, tool string) string {
	if t, _, original := svc.OriginParts(); t == tool && original != "" {
		return original
	}
	return svc.Name
}

// SameEntry reports whether a tool's entry holds the declared definition,
// enabled flag, tool lists and extra keys (other keys the tool has besides
// do not count: chronicle leaves them as they are). Secrets are compared by
// reference. Whether the entry holds the declared timeout depends on the
// tool (HoldsTimeout).
func SameEntry(want, got provider.Entry) bool {
	return want.Definition.Same(got.Definition) && sameRest(want, got)
}

// sameRest is SameEntry without the definition.
func sameRest(want, got provider.Entry) bool {
	return want.Enabled == got.Enabled && got.Extra.Holds(want.Extra) &&
		slices.Equal(want.EnabledTools, got.EnabledTools) && slices.Equal(want.DisabledTools, got.DisabledTools)
}

// holds reports whether the tool's entry got is the declared want as p
// stores it: SameEntry, and the timeout where p keeps one.
func (b *builder) holds(p provider.Provider, want, got provider.Entry) bool {
	return SameEntry(want, got) && HoldsTimeout(p, want, got)
}

// RenderedHash is the hash of an entry as the provider renders it: the state
// records it to tell whether the declaration changed since the last write.
func RenderedHash(rendered []byte) string { return toolfile.Hash(rendered) }
