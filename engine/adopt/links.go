package adopt

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// A Link is one link block adopt would write: the tools that have the same
// services (and, with LinkSkills, the same skills, and the hub entry) at one
// scope, so that applying the configuration changes nothing there.
type Link struct {
	Name     string
	Tools    []string
	Services []string
	Skills   []string
	Hub      bool
	Project  string   // "" at user level
	Local    bool     // Claude's entries for Project kept in ~/.claude.json (scope = "local")
	Files    []string // the tool files and folders it reproduces, for the comment
	// Rules, Commands and Agents are the instruction blocks it gives its
	// tools (instructions.go).
	Rules    []string
	Commands []string
	Agents   []string
}

// Addresses returns the addresses the link declares, per tool.
func (l Link) Addresses() []string {
	var out []string
	for _, t := range l.Tools {
		for _, s := range l.Services {
			out = append(out, fmt.Sprintf("link.%s[%q].service.%s", l.Name, t, s))
		}
		if l.Hub {
			out = append(out, fmt.Sprintf("link.%s[%q].hub", l.Name, t))
		}
	}
	return append(out, l.instructionAddresses()...)
}

// SkillAddresses returns the addresses of the link's skills, per tool.
func (l Link) SkillAddresses() []string {
	var out []string
	for _, t := range l.Tools {
		for _, s := range l.Skills {
			out = append(out, fmt.Sprintf("link.%s[%q].skill.%s", l.Name, t, s))
		}
	}
	return out
}

// DistributeOptions say how adopt reproduces today's distribution.
type DistributeOptions struct {
	// LinkSkills links the adopted skills into the tools whose folders
	// held them (their folders are then moved into a backup set by apply
	// --replace); without it, those folders stay real folders and links
	// carry services and the hub only.
	LinkSkills bool
	// IsHub reports whether an entry named "chronicle" is chronicle's hub.
	IsHub func(provider.Entry) bool
	// Render renders an entry as the tool would store it, or says why the
	// tool cannot hold it (a tool with no syntax for secret references
	// cannot hold one that has them): a link that could not be applied is
	// not written.
	Render func(tool string, e provider.Entry) ([]byte, error)
	// Refusal says why the tool's editor would refuse to write the entry
	// as declared at its place (a YAML anchor or alias, a flow map: see
	// plan.Refusal), or nil: a link the first plan could not carry out
	// is not written (decision 0126).
	Refusal func(loc provider.Location, e provider.Entry) error
	Home    string
}

// placement is one tool's entry (or skill) at one scope that a link can
// reproduce.
type placement struct {
	tool, project string
	local         bool
}

// Distribute adds the link blocks that reproduce which tools (and
// projects) have which services, skills and hub entry today, grouping the
// tools that have the same set into one link. What a link cannot write as
// the tool has it is left as it is, with the reason in Unlinked: Claude's
// per-project "local" entries, disabled entries, entries a link would
// write under another name or with other tool lists, entries the tool
// could not hold as declared, and entries its editor refuses to rewrite. What existing links already cover is
// left too.
func (p *Proposal) Distribute(r scan.Result, cfg *config.Config, opts DistributeOptions) {
	if cfg == nil {
		cfg = &config.Config{}
	}
	adopted := map[string]*service.Service{}
	policies := map[string]*config.Policy{}  // each service's policy, adopted or declared
	targets := map[string][]*config.Target{} // each service's targets, adopted or declared
	for _, s := range p.Services {
		timeout := s.Timeout
		if timeout == 0 {
			timeout = service.DefaultTimeout
		}
		adopted[s.Name] = &service.Service{Name: s.Name, Origin: s.Origin, Definition: s.Entry.Definition, Timeout: timeout, Enabled: true}
		policies[s.Name], targets[s.Name] = s.Policy, s.Targets
	}
	for _, pol := range cfg.Policies {
		policies[pol.Service] = pol
	}
	for name, ts := range cfg.Targets {
		targets[name] = ts
	}
	target := func(svc, tool string) *config.Target {
		for _, t := range targets[svc] {
			if t.Tool == tool {
				return t
			}
		}
		return nil
	}
	type holding struct {
		services map[string]bool
		skills   map[string]bool
		hub      bool
		files    map[string]bool
	}
	by := map[placement]*holding{}
	decls := scan.NewDeclarations(cfg)
	at := func(tool, project string, local bool, file string) *holding {
		k := placement{tool: tool, project: project, local: local}
		h := by[k]
		if h == nil {
			h = &holding{services: map[string]bool{}, skills: map[string]bool{}, files: map[string]bool{}}
			by[k] = h
		}
		h.files[file] = true
		return h
	}
	for i, s := range r.Services {
		loc, e := s.Location, s.Entry
		what := fmt.Sprintf("%s %s entry %q (%s)", loc.Tool, loc.Scope, e.Name, tildify(opts.Home, loc.File))
		unlinked := func(why string, args ...any) {
			p.Unlinked = append(p.Unlinked, Skipped{What: what, Why: fmt.Sprintf(why, args...)})
		}
		adoptedHere := s.Status == scan.StatusNew && p.placed[i] != ""
		if e.Name != names.Hub && adoptedHere && !e.Enabled {
			unlinked("disabled in %s: a link writes enabled entries only", loc.Tool)
			continue
		}
		if loc.ReadOnly {
			unlinked("chronicle reads %s and never writes it (%s): a link writes the service into %s's own file", tildify(opts.Home, loc.File), loc.Note, loc.Tool)
			continue
		}
		local := loc.Scope == provider.ScopeLocal
		if !e.Enabled || (local && e.Name == names.Hub) {
			continue
		}
		if e.Name == names.Hub {
			if opts.IsHub != nil && opts.IsHub(e) && s.Status != scan.StatusOwned && s.Status != scan.StatusDrift {
				at(loc.Tool, loc.Project, false, loc.File).hub = true
			}
			continue
		}
		var svc *service.Service
		switch s.Status {
		case scan.StatusNew:
			svc = adopted[p.placed[i]]
		case scan.StatusUnchanged:
			svc = decls.Of(loc.Tool, e.Name)
		}
		if svc == nil {
			continue
		}
		if n := plan.EntryName(svc, loc.Tool); n != e.Name {
			unlinked("a link would write service.%s as %q, not under this entry's name", svc.Name, n)
			continue
		}
		t := target(svc.Name, loc.Tool)
		declared, fromPolicy := plan.ToolEntry(svc, policies[svc.Name], t, loc.Tool)
		if fromPolicy && opts.Render != nil {
			if _, err := opts.Render(loc.Tool, declared); err != nil {
				// As the plan does: a tool with no field for tool lists
				// gets the entry without them (the hub enforces the policy).
				declared = plan.WithoutPolicyLists(declared, t)
			}
		}
		if !slices.Equal(declared.EnabledTools, e.EnabledTools) || !slices.Equal(declared.DisabledTools, e.DisabledTools) {
			unlinked("its tool lists differ from those a link would write for service.%s", svc.Name)
			continue
		}
		if !e.Extra.Holds(declared.Extra) {
			unlinked("its keys differ from the extra of service.%s's target %q, which a link would write", svc.Name, loc.Tool)
			continue
		}
		if covered(cfg, loc.Tool, loc.Project, local, svc.Name) {
			continue
		}
		if opts.Render != nil {
			if _, err := opts.Render(loc.Tool, declared); err != nil {
				unlinked("%s cannot hold it as declared: %s", loc.Tool, err)
				continue
			}
			if !holdsTimeout(opts.Render, loc.Tool, declared, e) {
				unlinked("its timeout differs from the one a link would write for service.%s", svc.Name)
				continue
			}
		}
		if opts.Refusal != nil {
			if err := opts.Refusal(loc, declared); err != nil {
				// The line names the file already.
				unlinked("chronicle cannot edit it in %s: %s", loc.Tool, strings.TrimPrefix(err.Error(), loc.File+": "))
				continue
			}
		}
		at(loc.Tool, loc.Project, local, loc.File).services[svc.Name] = true
	}
	if opts.LinkSkills {
		byHash := map[string]string{}
		for _, k := range p.Skills {
			byHash[k.Hash] = k.Name
		}
		for _, f := range r.Skills {
			name, ok := byHash[f.Hash]
			if !ok || name != f.Name || f.Status == skills.StatusBroken || f.ReadOnly {
				continue
			}
			at(f.Tool, f.Project, false, f.Dir).skills[name] = true
		}
	}
	// Group the tools of each scope by what they hold.
	type group struct {
		project string
		local   bool
		key     string
		tools   []string
		h       *holding
	}
	groups := map[string]*group{}
	for k, h := range by {
		if len(h.services) == 0 && len(h.skills) == 0 && !h.hub {
			continue
		}
		key := k.project + "\x00" + fmt.Sprint(k.local) + "\x00" + strings.Join(sortedSet(h.services), ",") + "\x00" + strings.Join(sortedSet(h.skills), ",") + fmt.Sprint(h.hub)
		g := groups[key]
		if g == nil {
			g = &group{project: k.project, local: k.local, key: key, h: &holding{services: h.services, skills: h.skills, hub: h.hub, files: map[string]bool{}}}
			groups[key] = g
		}
		g.tools = append(g.tools, k.tool)
		for f := range h.files {
			g.h.files[f] = true
		}
	}
	var list []*group
	for _, g := range groups {
		sort.Strings(g.tools)
		list = append(list, g)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].project != list[j].project {
			return list[i].project < list[j].project
		}
		if list[i].local != list[j].local {
			return !list[i].local
		}
		return strings.Join(list[i].tools, ",") < strings.Join(list[j].tools, ",")
	})
	perProject := map[string]int{}
	for _, g := range list {
		if !g.local {
			perProject[g.project]++
		}
	}
	taken := nameSet{}
	for _, l := range cfg.Links {
		taken[l.Name] = true
	}
	for _, n := range cfg.AbsentNames("link") {
		taken[n] = true
	}
	for _, g := range list {
		base := validName(strings.Join(g.tools, "-"))
		if g.project != "" {
			base = validName(filepath.Base(g.project))
			if perProject[g.project] > 1 {
				base = validName(filepath.Base(g.project) + "-" + strings.Join(g.tools, "-"))
			}
			if g.local {
				base = validName(filepath.Base(g.project) + "-" + strings.Join(g.tools, "-") + "-local")
			}
		}
		p.Links = append(p.Links, Link{
			Name: taken.take(base), Tools: g.tools, Services: sortedSet(g.h.services), Skills: sortedSet(g.h.skills),
			Hub: g.h.hub, Project: g.project, Local: g.local, Files: sortedSet(g.h.files),
		})
	}
}

// holdsTimeout is plan.HoldsTimeout through opts.Render.
func holdsTimeout(render func(string, provider.Entry) ([]byte, error), tool string, want, got provider.Entry) bool {
	if want.Timeout == got.Timeout {
		return true
	}
	a, err1 := render(tool, want)
	with := want
	with.Timeout = got.Timeout
	b, err2 := render(tool, with)
	return err1 == nil && err2 == nil && string(a) == string(b)
}

// covered reports whether a link of cfg already writes service to tool at
// project (local: in the tool's entries for the project kept outside it),
// by name or through "*" (tools = ["*"]: the tools present here).
func covered(cfg *config.Config, tool, project string, local bool, svc string) bool {
	for _, l := range cfg.Links {
		if l.Project == project && l.Local == local && slices.Contains(cfg.LinkTools(l), tool) && slices.Contains(cfg.LinkServices(l), svc) {
			return true
		}
	}
	return false
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// linkBlock renders one link with a comment saying what it reproduces.
func linkBlock(l Link, home string) *hclwrite.File {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	where := "at user level"
	if l.Project != "" {
		where = "in " + tildify(home, l.Project)
	}
	if l.Local {
		where = "for " + tildify(home, l.Project) + " in its local scope"
	}
	var files []string
	for _, p := range l.Files {
		files = append(files, tildify(home, p))
	}
	if len(files) > 0 {
		comment(body, fmt.Sprintf("# Reproduces what %s %s today (%s).\n", strings.Join(l.Tools, ", "), verb(len(l.Tools))+" "+where, strings.Join(files, ", ")))
	} else {
		comment(body, fmt.Sprintf("# Reproduces the rules, commands and agents %s %s today.\n", strings.Join(l.Tools, ", "), verb(len(l.Tools))+" "+where))
	}
	b := body.AppendNewBlock("link", []string{l.Name}).Body()
	b.SetAttributeRaw("tools", tokensForStrings(l.Tools))
	if len(l.Services) > 0 {
		b.SetAttributeRaw("services", tokensForStrings(l.Services))
	}
	if len(l.Skills) > 0 {
		b.SetAttributeRaw("skills", tokensForStrings(l.Skills))
	}
	if l.Hub {
		b.SetAttributeValue("hub", cty.True)
	}
	if len(l.Rules) > 0 {
		b.SetAttributeRaw("rules", tokensForStrings(l.Rules))
	}
	if len(l.Commands) > 0 {
		b.SetAttributeRaw("commands", tokensForStrings(l.Commands))
	}
	if len(l.Agents) > 0 {
		b.SetAttributeRaw("agents", tokensForStrings(l.Agents))
	}
	if l.Project != "" {
		b.SetAttributeValue("project", cty.StringVal(tildify(home, l.Project)))
	}
	if l.Local {
		b.SetAttributeValue("scope", cty.StringVal("local"))
	}
	return f
}

func verb(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}
