package adopt

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/markers"
	"github.com/chronicle-dev/chronicle/engine/scan"
)

// An Instruction is a rule, command or agent adopt copies into the
// configuration's rules/, commands/ or agents/ folder and declares.
type Instruction struct {
	Kind string
	Name string
	// To is the copy, relative to the configuration folder:
	// commands/review.md.
	To string
	// Text is the copy's content: the tool's file read back into the
	// configuration's form (a front matter block with the attributes, then
	// the body).
	Text []byte
	// Copy is false when To holds the same text already.
	Copy   bool
	Origin string // tool:scope it was first found at
	From   string // the file it was found in
}

// InstructionOptions say what adopt takes of the rules, commands and
// agents.
type InstructionOptions struct {
	// Rules takes over each root instruction file written by hand
	// (AGENTS.md, CLAUDE.md, …) as one rule holding its whole text; without
	// it those files stay the user's, untouched.
	Rules bool
	Home  string
}

// An instructionPlacement is one tool's item at one scope.
type instructionPlacement struct {
	tool, project string
}

// ProposeInstructions adds what adopt takes of the tools' rules, commands
// and agents: a block and a copy for each new item (the same item in
// several tools is one block), and link blocks that reproduce which tools
// (and projects) have which, so that the next plan is clean.
func (p *Proposal) ProposeInstructions(r scan.Result, cfg *config.Config, configDir string, opts InstructionOptions) {
	if cfg == nil {
		cfg = &config.Config{}
	}
	taken := map[string]nameSet{}
	for _, kind := range instruction.Kinds {
		taken[kind] = nameSet{}
		for _, n := range cfg.InstructionNames(kind) {
			taken[kind][n] = true
		}
	}
	byName := map[string][]*Instruction{} // kind/name in the tool → adopted variants
	has := map[instructionPlacement]map[string]map[string]bool{}
	hold := func(tool, project, kind, name string) {
		k := instructionPlacement{tool, project}
		if has[k] == nil {
			has[k] = map[string]map[string]bool{}
		}
		if has[k][kind] == nil {
			has[k][kind] = map[string]bool{}
		}
		has[k][kind][name] = true
	}
	for _, in := range r.Instructions {
		what := fmt.Sprintf("%s %s %s %s", in.Tool, in.Scope, in.Kind, tildify(opts.Home, in.Path))
		tools := append([]string{in.Tool}, in.SharedWith...)
		if in.Root {
			switch {
			case in.Status != scan.StatusHandWritten:
				continue
			case !opts.Rules:
				p.Skipped = append(p.Skipped, Skipped{what, "written by hand: it stays yours, untouched (adopt --rules takes its whole text over as one rule)"})
				continue
			case len(in.Blocks) > 0:
				p.Skipped = append(p.Skipped, Skipped{what, "holds chronicle's blocks besides your text: adopt --rules takes over only a file that is all yours"})
				continue
			}
		}
		switch in.Status {
		case scan.StatusUnchanged:
			for _, t := range tools {
				hold(t, in.Project, in.Kind, in.Name)
			}
			continue
		case scan.StatusConflict:
			p.Unlinked = append(p.Unlinked, Skipped{what, in.Reason})
			continue
		case scan.StatusInvalid:
			p.Skipped = append(p.Skipped, Skipped{what, in.Reason})
			continue
		case scan.StatusNew, scan.StatusHandWritten:
		default:
			continue // chronicle's own
		}
		found := in.Found
		if why := unadoptable(found); why != "" {
			p.Skipped = append(p.Skipped, Skipped{what, why})
			continue
		}
		raw := in.Name
		if in.Root {
			raw = rootRuleName(in, opts.Home)
		}
		key := in.Kind + "/" + raw
		var adopted *Instruction
		for _, v := range byName[key] {
			if v.same(found) {
				adopted = v
			}
		}
		if adopted == nil {
			base := validName(raw)
			if len(byName[key]) > 0 {
				base = validName(raw + "-" + in.Tool)
			}
			name := taken[in.Kind].take(base)
			found.Name = name
			adopted = &Instruction{Kind: in.Kind, Name: name, Text: sourceText(found), Origin: in.Tool + ":" + in.Scope, From: in.Path}
			adopted.place(configDir, taken[in.Kind])
			byName[key] = append(byName[key], adopted)
			p.Instructions = append(p.Instructions, *adopted)
			p.Sources = append(p.Sources, in.Path)
		}
		for _, t := range tools {
			hold(t, in.Project, in.Kind, adopted.Name)
		}
	}
	p.instructionLinks(cfg, has)
}

// same reports whether a variant adopted already is the instruction found.
func (v *Instruction) same(found instruction.Instruction) bool {
	found.Name = v.Name
	return string(sourceText(found)) == string(v.Text)
}

// place decides where the copy goes: kind folder/name.md, or the next free
// name when another text is there already.
func (v *Instruction) place(configDir string, taken nameSet) {
	for {
		v.To = v.Kind + "s/" + v.Name + ".md"
		old, err := os.ReadFile(filepath.Join(configDir, filepath.FromSlash(v.To)))
		switch {
		case err != nil:
			v.Copy = true
			return
		case string(old) == string(v.Text):
			return
		}
		v.Name = taken.take(v.Name)
	}
}

// unadoptable says why a found item cannot be declared, or "".
func unadoptable(in instruction.Instruction) string {
	switch {
	case in.Body == "":
		return "it has no text"
	case in.Kind == instruction.Agent && in.Description == "":
		return "it has no description, which chronicle's agents need (the tools pick an agent by it)"
	}
	if n, ok := markers.FindMarker(in.Body); ok {
		return fmt.Sprintf("line %d of it is a chronicle marker", n)
	}
	return ""
}

// rootRuleName names the rule a hand-written root file becomes: the file
// and where it is (codex-agents-md, api-claude-md).
func rootRuleName(in scan.Instruction, home string) string {
	base := filepath.Base(in.Path)
	if in.Project != "" {
		return filepath.Base(in.Project) + "-" + base
	}
	if strings.Contains(strings.ToLower(base), in.Tool) {
		return base
	}
	return in.Tool + "-" + base
}

// sourceText is an instruction as the configuration keeps it in a source
// file: a front matter block with its attributes, then its body.
func sourceText(in instruction.Instruction) []byte {
	var h instruction.Header
	h.Add("description", in.Description)
	h.Add("globs", in.Globs)
	h.Add("argument-hint", in.ArgumentHint)
	h.Add("tools", in.Tools)
	h.Add("model", in.Model)
	return h.Markdown(in.Body)
}

// instructionLinks adds the link blocks that give each tool (at each
// scope) the items it has, the tools holding the same items sharing one
// link; what the configuration's links give already is left out.
func (p *Proposal) instructionLinks(cfg *config.Config, has map[instructionPlacement]map[string]map[string]bool) {
	type group struct {
		project string
		tools   []string
		lists   map[string][]string
	}
	groups := map[string]*group{}
	for k, kinds := range has {
		lists := map[string][]string{}
		for _, kind := range instruction.Kinds {
			for _, name := range sortedSet(kinds[kind]) {
				if !instructionCovered(cfg, k.tool, k.project, kind, name) {
					lists[kind] = append(lists[kind], name)
				}
			}
		}
		if len(lists) == 0 {
			continue
		}
		key := k.project + "\x00" + strings.Join(lists[instruction.Rule], ",") + "\x00" + strings.Join(lists[instruction.Command], ",") + "\x00" + strings.Join(lists[instruction.Agent], ",")
		g := groups[key]
		if g == nil {
			g = &group{project: k.project, lists: lists}
			groups[key] = g
		}
		g.tools = append(g.tools, k.tool)
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
		return strings.Join(list[i].tools, ",") < strings.Join(list[j].tools, ",")
	})
	taken := nameSet{}
	for _, l := range cfg.Links {
		taken[l.Name] = true
	}
	for _, l := range p.Links {
		taken[l.Name] = true
	}
	perProject := map[string]int{}
	for _, g := range list {
		perProject[g.project]++
	}
	for _, g := range list {
		base := "instructions-" + strings.Join(g.tools, "-")
		if g.project != "" {
			base = filepath.Base(g.project) + "-instructions"
			if perProject[g.project] > 1 {
				base = filepath.Base(g.project) + "-" + strings.Join(g.tools, "-") + "-instructions"
			}
		}
		p.Links = append(p.Links, Link{
			Name: taken.take(validName(base)), Tools: g.tools, Project: g.project,
			Rules: g.lists[instruction.Rule], Commands: g.lists[instruction.Command], Agents: g.lists[instruction.Agent],
		})
	}
}

// instructionCovered reports whether a link of cfg gives tool the item at
// project already.
func instructionCovered(cfg *config.Config, tool, project, kind, name string) bool {
	for _, l := range cfg.Links {
		if l.Project != project || l.Local || !slices.Contains(l.Tools, tool) {
			continue
		}
		for _, w := range l.Wants(kind) {
			if w == "*" || w == name {
				return true
			}
		}
	}
	return false
}

// instructionBlock renders one adopted item's block.
func instructionBlock(in Instruction, home string) *hclwrite.File {
	f := hclwrite.NewEmptyFile()
	comment(f.Body(), fmt.Sprintf("# Adopted from %s: %s\n", in.Origin, tildify(home, in.From)))
	b := f.Body().AppendNewBlock(in.Kind, []string{in.Name}).Body()
	b.SetAttributeValue("source", cty.StringVal("./"+in.To))
	return f
}

// instructionAddresses returns the addresses of the link's rules, commands
// and agents, per tool.
func (l Link) instructionAddresses() []string {
	var out []string
	for _, t := range l.Tools {
		for kind, names := range map[string][]string{instruction.Rule: l.Rules, instruction.Command: l.Commands, instruction.Agent: l.Agents} {
			for _, n := range names {
				out = append(out, fmt.Sprintf("link.%s[%q].%s.%s", l.Name, t, kind, n))
			}
		}
	}
	sort.Strings(out)
	return out
}
