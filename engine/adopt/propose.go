package adopt

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// A Declaration is one service block adopt would write.
type Declaration struct {
	Name   string
	Origin string
	// From is the first entry found of the server: its values are the
	// block's own.
	From  scan.Service
	Notes []SecretNote
	// Differs says, for a variant of a server another tool has under the
	// same name, what differs: "github-codex differs from github in
	// env.GITHUB_TOKEN".
	Differs string
	// Entry is the first entry as declared: the tool's, with secrets
	// replaced by references.
	Entry provider.Entry
	// Also are the other entries of the same server the block takes (the
	// same command and args, or the same url, in other tools or scopes),
	// with secrets replaced by references.
	Also []scan.Service
	// Timeout is the service's own timeout, zero when it sets none: the
	// one every entry has, else none (each entry's is in its target).
	Timeout time.Duration
	// Policy holds the tool lists every entry has, nil when they differ
	// or are empty.
	Policy *config.Policy
	// Targets hold each tool's own values (timeouts, tool lists, env or
	// headers that differ, keys the provider does not model), by tool.
	Targets []*config.Target
	// Left are the keys of an entry that no attribute or extra declares
	// because they look secret: they stay in the tool as they are.
	Left []string

	members []member
	block   *hclwrite.File
}

// A Skill is one skill adopt would copy and declare.
type Skill struct {
	Name string
	From string // the folder in the tool's skills folder (through a link)
	// To is the folder beside the configuration, relative to it: skills/<name>.
	To string
	// Copy is false when To already holds the same skill.
	Copy bool
	// Renamed says the skill's frontmatter name must become Name.
	Renamed bool
	Origin  string
	Hash    string
}

// A Skipped item was found but not adopted.
type Skipped struct {
	What string
	Why  string
}

// A Proposal is what adopt would append and copy.
type Proposal struct {
	Services []Declaration
	Skills   []Skill
	Skipped  []Skipped
	// Instructions are the rules, commands and agents adopted
	// (instructions.go).
	Instructions []Instruction
	// Sources are the tool files the adopted entries come from: backed up
	// before anything is written.
	Sources []string
	// Links reproduce which tools have which services (Distribute).
	Links []Link
	// Unlinked are the adopted entries no link reproduces, each with why:
	// declared, but left unmanaged in the tool.
	Unlinked []Skipped

	// home shortens paths in comments.
	home string
	// placed maps a scanned service (its index in the scan) to the service
	// adopted for it.
	placed map[int]string
}

// Empty reports whether there is nothing to adopt.
func (p *Proposal) Empty() bool {
	return len(p.Services) == 0 && len(p.Skills) == 0 && len(p.Links) == 0 && len(p.Instructions) == 0
}

// Propose works out what adopt would take over from a scan. cfg may be nil
// (no configuration yet); configDir is where skills/ lives; home shortens
// paths in comments to ~/….
func Propose(r scan.Result, cfg *config.Config, configDir, home string) *Proposal {
	return ProposeWith(r, cfg, configDir, home, nil)
}

// ProposeWith is Propose with the tools' providers' Render (nil: none),
// which decides which of two different values found under one variable
// name keeps it: the one whose tool can read no other name.
func ProposeWith(r scan.Result, cfg *config.Config, configDir, home string, render func(tool string, e provider.Entry) ([]byte, error)) *Proposal {
	if cfg == nil {
		cfg = &config.Config{}
	}
	p := &Proposal{placed: map[int]string{}, home: home}
	taken := nameSet{}
	for _, n := range append(cfg.ServiceNames(), cfg.AbsentNames("service")...) {
		taken[n] = true // a block absent on this machine keeps its name
	}
	taken[names.Hub] = true
	// Adopted services by the tool's entry name: the same server found in
	// several tools, however spelled, becomes one service, each tool's own
	// values in its target block.
	variants := map[string][]*Declaration{}
	var adopted []*Declaration
	sources := map[string]bool{}
	secretNames := newSecretNames(claims(r, home), render)
	for i, s := range r.Services {
		e := s.Entry
		what := fmt.Sprintf("%s %s entry %q (%s)", s.Location.Tool, s.Location.Scope, e.Name, tildify(home, s.Location.File))
		switch {
		case s.Status == scan.StatusInvalid:
			p.Skipped = append(p.Skipped, Skipped{what, "its name cannot be used safely"})
			continue
		case s.Status != scan.StatusNew:
			continue // declared already, or chronicle's own
		case e.Name == names.Hub:
			continue
		case e.Transport == service.Extension:
			p.Skipped = append(p.Skipped, Skipped{what, "a Zed extension provides it"})
			continue
		}
		s.Entry = provider.InProject(s.Location, s.Entry)
		clean, sz := secretizeNamed(s, home, secretNames)
		notes := sz.notes
		m := newMember(clean)
		sources[s.Location.File] = true
		if svc := mergeable(variants[e.Name], m); svc != nil {
			// The same server in another tool: one block serves both.
			svc.members = append(svc.members, m)
			svc.Also = append(svc.Also, clean)
			svc.Notes = addNotes(svc.Notes, notes)
			p.placed[i] = svc.Name
			continue
		}
		base := validName(e.Name)
		var differs string
		if others := variants[e.Name]; len(others) > 0 {
			base = validName(e.Name + "-" + s.Location.Tool)
			differs = fmt.Sprintf("%s differs from %s in %s", base, others[0].Name, strings.Join(others[0].Entry.Definition.Differences(clean.Entry.Definition), ", "))
			if same := sameServerIn(others, m); same != nil {
				differs = fmt.Sprintf("%s is the server of %s, kept apart so that a link writes it under %s's own name, %q", base, same.Name, s.Location.Tool, e.Name)
				if writesUnder(same, m) {
					differs = fmt.Sprintf("%s is the server of %s with other values in the same tool (one target block holds one tool's values)", base, same.Name)
				}
			}
		}
		name := taken.take(base)
		p.placed[i] = name
		svc := &Declaration{Name: name, Origin: s.Location.Tool + ":" + s.Location.Scope, From: s, Notes: notes, Differs: differs, Entry: clean.Entry, members: []member{m}}
		if name != e.Name {
			svc.Origin += ":" + e.Name
		}
		variants[e.Name] = append(variants[e.Name], svc)
		adopted = append(adopted, svc)
	}
	for _, svc := range adopted {
		svc.settle()
		svc.block = renderBlock(*svc, svc.Entry, home)
		p.Services = append(p.Services, *svc)
	}
	p.Skills, p.Skipped = proposeSkills(r.Skills, cfg, configDir, home, p.Skipped)
	for f := range sources {
		p.Sources = append(p.Sources, f)
	}
	sort.Strings(p.Sources)
	return p
}

// secretizeNamed returns the entry with secret-looking literals replaced by
// references, and the secretizer with its notes on where their values
// live. Variable names derive from the tool's entry name, so the same
// server found in several tools gets the same names; vars gives a value
// found under a name with another value a name of its own (nil: none).
func secretizeNamed(s scan.Service, home string, vars *secretNames) (scan.Service, *secretizer) {
	e, loc := s.Entry, s.Location
	base := validName(e.Name)
	sz := &secretizer{file: tildify(home, loc.File), place: place(loc.KeyPath, e.Name), names: vars}
	args := make([]secret.Value, len(e.Args))
	for i, a := range e.Args {
		key := "" // the value after a secret flag (--password hunter2) is a secret
		if i > 0 {
			prev, _ := e.Args[i-1].Literal()
			key = mask.ArgKey(prev)
		}
		args[i] = sz.value(key, a, envName(base, "arg", itoa(i+1)), fmt.Sprintf("args[%d]", i))
	}
	env := map[string]secret.Value{}
	for k, v := range e.Env {
		env[k] = sz.value(k, v, envName(k), "env."+k)
	}
	headers := map[string]secret.Value{}
	for k, v := range e.Headers {
		varName := envName(base, k)
		if strings.HasPrefix(envName(k), envName(base)+"_") {
			varName = envName(k) // CONTEXT7_API_KEY, not CONTEXT7_CONTEXT7_API_KEY
		}
		if strings.EqualFold(k, "authorization") {
			varName = envName(base, "token")
		}
		headers[k] = sz.value(k, v, varName, "headers."+k)
	}
	e.Args, e.Env, e.Headers = args, env, headers
	e.URL = sz.value("url", e.URL, envName(base, "url"), "url")
	s.Entry = e
	return s, sz
}

// adoptable reports whether adopt takes a service the scan found: a new
// entry, not the hub's, not one a Zed extension provides (invalid names
// are not new).
func adoptable(s scan.Service) bool {
	return s.Status == scan.StatusNew && s.Entry.Name != names.Hub && s.Entry.Transport != service.Extension
}

// place writes where an entry sits in its file: mcpServers.github, or
// projects["/home/dev/api"].mcpServers.postgres.
func place(keyPath []string, name string) string {
	var b strings.Builder
	for _, k := range append(append([]string(nil), keyPath...), name) {
		if strings.ContainsAny(k, "./ \"[]") || k == "" {
			fmt.Fprintf(&b, "[%q]", k)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(k)
	}
	return b.String()
}

// renderBlock renders one service block (and, when the tool restricts tools, its
// policy) from the secretized entry e.
func renderBlock(svc Declaration, e provider.Entry, home string) *hclwrite.File {
	loc := svc.From.Location
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	args, env, headers, url := e.Args, e.Env, e.Headers, e.URL

	comment(body, fmt.Sprintf("# Adopted from %s (%s scope): %s\n", loc.Tool, loc.Scope, tildify(home, loc.File)))
	for _, also := range svc.Also {
		comment(body, fmt.Sprintf("# Also in %s (%s scope): %s\n", also.Location.Tool, also.Location.Scope, tildify(home, also.Location.File)))
	}
	if svc.Differs != "" {
		comment(body, "# "+svc.Differs+".\n")
	}
	for _, n := range svc.Notes {
		if n.Apart != "" {
			comment(body, fmt.Sprintf("# Secret: export %s (its current value is in %s at %s; another tool holds a different value under %s, so this one has a name of its own).\n", n.Var, n.File, n.Place, n.Apart))
			continue
		}
		comment(body, fmt.Sprintf("# Secret: export %s (its current value is in %s at %s).\n", n.Var, n.File, n.Place))
	}
	for _, k := range svc.Left {
		comment(body, fmt.Sprintf("# Not declared: %s looks secret; it stays in the tool as it is.\n", k))
	}
	b := body.AppendNewBlock("service", []string{svc.Name}).Body()
	if e.Transport == service.Stdio {
		b.SetAttributeValue("command", cty.StringVal(e.Command))
		if len(args) > 0 {
			b.SetAttributeRaw("args", tokensForList(args))
		}
		if len(env) > 0 {
			b.SetAttributeRaw("env", tokensForMap(env))
		}
		if e.Cwd != "" {
			b.SetAttributeValue("cwd", cty.StringVal(tildify(home, e.Cwd)))
		}
	} else {
		b.SetAttributeRaw("url", tokensForValue(url))
		if len(headers) > 0 {
			b.SetAttributeRaw("headers", tokensForMap(headers))
		}
		if e.Transport == service.SSE {
			b.SetAttributeValue("transport", cty.StringVal("sse"))
		}
	}
	if svc.Timeout > 0 {
		b.SetAttributeValue("timeout", cty.StringVal(svc.Timeout.String()))
	}
	if loc.Project != "" {
		b.SetAttributeValue("project", cty.StringVal(tildify(home, loc.Project)))
	}
	if !e.Enabled {
		b.SetAttributeValue("enabled", cty.False)
	}
	b.SetAttributeValue("origin", cty.StringVal(svc.Origin))
	for _, t := range svc.Targets {
		b.AppendNewline()
		targetBlock(b.AppendNewBlock("target", []string{t.Tool}).Body(), t)
	}
	if pol := svc.Policy; pol != nil {
		body.AppendNewline()
		pb := body.AppendNewBlock("policy", []string{svc.Name}).Body()
		if len(pol.EnabledTools) > 0 {
			pb.SetAttributeRaw("enabled_tools", tokensForStrings(pol.EnabledTools))
		}
		if len(pol.DisabledTools) > 0 {
			pb.SetAttributeRaw("disabled_tools", tokensForStrings(pol.DisabledTools))
		}
	}
	return f
}

// tildify shows a path under home as ~/….
func tildify(home, p string) string {
	if home == "" {
		return p
	}
	if rel, err := filepath.Rel(home, p); err == nil && filepath.IsLocal(rel) {
		return "~/" + filepath.ToSlash(rel)
	}
	return p
}

func proposeSkills(found []skills.Found, cfg *config.Config, configDir, home string, skipped []Skipped) ([]Skill, []Skipped) {
	declared := setOf(cfg.SkillNames())
	taken := nameSet{}
	for n := range declared {
		taken[n] = true
	}
	for _, n := range cfg.AbsentNames("skill") {
		taken[n] = true
	}
	byHash := map[string]string{} // content hash → adopted name
	var out []Skill
	for _, f := range found {
		what := fmt.Sprintf("skill %q in %s", f.Name, tildify(home, f.Dir))
		switch f.Status {
		case skills.StatusBroken, skills.StatusSingleFile:
			skipped = append(skipped, Skipped{what, f.Reason})
			continue
		case skills.StatusImportable:
			if f.ReadOnly { // the tool's plugin manager keeps it
				skipped = append(skipped, Skipped{what, "chronicle reads this folder and never writes it (" + f.Note + ")"})
				continue
			}
		default:
			continue
		}
		if declared[f.Name] {
			continue
		}
		if _, dup := byHash[f.Hash]; dup {
			continue
		}
		name := f.Name
		existing := filepath.Join(configDir, "skills", name)
		reuse := false
		if h, err := skills.Hash(fsys.OS{}, existing); err == nil {
			reuse = h == f.Hash
		}
		if !reuse {
			name = taken.take(f.Name)
			for dirTaken(configDir, name) {
				name = taken.take(f.Name)
			}
		} else {
			taken[name] = true
		}
		byHash[f.Hash] = name
		src := f.Path
		if f.Link != "" {
			if r, err := filepath.EvalSymlinks(f.Path); err == nil {
				src = r
			}
		}
		out = append(out, Skill{
			Name: name, From: src, To: filepath.ToSlash(filepath.Join("skills", name)),
			Copy: !reuse, Renamed: name != f.Meta.Name, Origin: f.Tool + ":" + f.Scope, Hash: f.Hash,
		})
	}
	return out, skipped
}

func dirTaken(configDir, name string) bool {
	_, err := os.Lstat(filepath.Join(configDir, "skills", name))
	return err == nil
}

func setOf(names []string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}
