package config

import (
	"github.com/hashicorp/hcl/v2"
)

var linkSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "tools"}, {Name: "skills"}, {Name: "services"}, {Name: "hub"}, {Name: "mode"}, {Name: "project"},
		{Name: "profile"}, {Name: "transport"}, {Name: "scope"},
		{Name: "rules"}, {Name: "commands"}, {Name: "agents"}, {Name: "claude_import"},
	},
}

// A linkRanges keeps where a link's lists were written, for later checks.
type linkRanges struct {
	tools, skills, services, profile hcl.Range
	// instructions holds where rules, commands and agents were written,
	// by kind.
	instructions map[string]hcl.Range
}

func (l *loader) decodeLink(in instance) {
	d := l.decoderFor(in)
	defer l.finish(d)
	b := in.block
	content, diags := in.body.Content(linkSchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	k := &Link{Name: in.name, Mode: ModeSymlink, DeclRange: b.DefRange}

	if a["tools"] == nil {
		d.errorf(b.DefRange, "Missing required argument", "The link %q needs tools = [...]: the tools to fan out to.", k.Name)
	}
	k.Tools, _ = d.strList(a["tools"])
	k.Skills, _ = d.strList(a["skills"])
	k.Services, _ = d.strList(a["services"])
	k.Hub, k.PerService = d.hubMode(a["hub"])
	if a["mode"] != nil {
		k.Mode, _ = d.oneOf(a["mode"], ModeSymlink, ModeCopy)
	}
	if a["project"] != nil {
		k.Project, _ = d.path(a["project"])
	}
	if a["scope"] != nil {
		scope, _ := d.oneOf(a["scope"], "project", "local")
		k.Local = scope == "local"
		switch {
		case k.Local && a["project"] == nil:
			d.errorf(a["scope"].Expr.Range(), "Local scope without a project", "scope = \"local\" writes a tool's entries for one project kept outside it (Claude's, in ~/.claude.json): the link %q needs project = \"…\".", k.Name)
		case k.Local && a["skills"] != nil:
			d.errorf(a["scope"].Expr.Range(), "Skills in the local scope", "The local scope holds MCP servers only: put the skills of link %q in a link of its own.", k.Name)
		case k.Local && (a["rules"] != nil || a["commands"] != nil || a["agents"] != nil):
			d.errorf(a["scope"].Expr.Range(), "Instructions in the local scope", "The local scope holds MCP servers only: put the rules, commands and agents of link %q in a link of its own.", k.Name)
		}
	}
	k.Transport = TransportStdio
	for _, name := range []string{"profile", "transport"} {
		if a[name] != nil && !k.Hub && !k.PerService {
			d.errorf(a[name].Expr.Range(), "Hub setting without the hub", "%s applies to the hub entry: the link %q needs hub = true for it.", name, k.Name)
		}
	}
	if k.PerService {
		switch {
		case a["services"] == nil:
			d.errorf(a["hub"].Expr.Range(), "Per-service hub without services", "hub = \"per-service\" writes one hub entry for each service the link lists: the link %q needs services = [...].", k.Name)
		case a["profile"] != nil:
			d.errorf(a["profile"].Expr.Range(), "Profile with a per-service hub", "A per-service entry serves one service as its server names it; a profile applies to the aggregated entry (hub = true). Put the profile in a link of its own with hub = true.")
		}
	}
	if a["profile"] != nil {
		k.Profile, _ = d.str(a["profile"])
	}
	if a["transport"] != nil {
		k.Transport, _ = d.oneOf(a["transport"], TransportStdio, TransportHTTP)
	}
	// An empty tools list is no error: a list computed from the machine
	// (machine.tools, tags) may be empty on one machine, and the link then
	// writes nothing there; the plan says so in a note (decision 0125).
	r := linkRanges{tools: b.DefRange, skills: b.DefRange, services: b.DefRange, instructions: map[string]hcl.Range{}}
	instructions := l.decodeLinkInstructions(d, k, a, r.instructions)
	if a["claude_import"] != nil {
		k.ClaudeImport, _ = d.boolean(a["claude_import"])
		if a["rules"] == nil {
			d.errorf(a["claude_import"].Expr.Range(), "claude_import without rules", "claude_import keeps a CLAUDE.md importing AGENTS.md for the rules a link gives Claude Code: the link %q gives none (rules = [...]).", k.Name)
		}
	}
	if a["skills"] == nil && a["services"] == nil && !k.Hub && !instructions {
		d.errorf(b.DefRange, "Link does nothing", "The link %q needs at least one of skills, services, rules, commands, agents or hub = true.", k.Name)
	}
	if a["tools"] != nil {
		r.tools = a["tools"].Expr.Range()
	}
	if a["skills"] != nil {
		r.skills = a["skills"].Expr.Range()
	}
	if a["services"] != nil {
		r.services = a["services"].Expr.Range()
	}
	r.profile = b.DefRange
	if a["profile"] != nil {
		r.profile = a["profile"].Expr.Range()
	}
	if l.linkRanges == nil {
		l.linkRanges = map[*Link]linkRanges{}
	}
	l.linkRanges[k] = r
	l.cfg.Links = append(l.cfg.Links, k)
}
