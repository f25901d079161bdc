package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/hashicorp/hcl/v2"
)

// checkReferences checks what blocks say about each other: policies and links
// name declared services and skills, links name known tools, and reserved
// names are not taken.
func (l *loader) checkReferences() {
	c := l.cfg
	errorf := func(rng hcl.Range, summary, detail string, args ...any) {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(detail, args...), Subject: rng.Ptr(),
		})
	}

	services := c.ServiceNames()
	serviceSet := setOf(services)
	if c.Chronova != nil {
		if s := c.Service(names.Chronova); s != nil {
			errorf(c.ServiceRanges[s.Name], "Service name taken by the chronova block",
				"The chronova block declares the built-in service %q; a service block cannot use the same name. Rename this service or remove the chronova block.", names.Chronova)
		}
	}

	for _, p := range c.Policies {
		if !serviceSet[p.Service] {
			errorf(p.DeclRange, "Policy for an undeclared service",
				"No service named %q is declared.%s", p.Service, didYouMean(p.Service, services))
		}
	}

	skills := c.SkillNames()
	skillSet := setOf(skills)
	seenSkill := map[string]bool{}
	for _, s := range c.Skills {
		for _, n := range s.Include {
			if seenSkill[n] {
				errorf(s.DeclRange, "Duplicate skill name", "The skill name %q is brought by more than one skill block.", n)
			}
			seenSkill[n] = true
		}
		if len(s.Include) == 0 {
			if seenSkill[s.Name] {
				errorf(s.DeclRange, "Duplicate skill name", "The skill name %q is brought by more than one skill block.", s.Name)
			}
			seenSkill[s.Name] = true
		}
		if s.Source != "" {
			l.checkSkillSource(s)
		}
	}

	var profiles []string
	for _, p := range c.Profiles {
		profiles = append(profiles, p.Name)
		for _, s := range p.Services {
			if !serviceSet[s] {
				errorf(l.profileServices[p], "Profile of an undeclared service", "The profile %q names the service %q, which no service block declares.%s", p.Name, s, didYouMean(s, services))
			}
		}
	}
	profileSet := setOf(profiles)

	tools := append([]string(nil), l.opts.KnownTools...)
	for _, t := range c.Tools {
		tools = append(tools, t.Name)
	}
	toolSet := setOf(tools)
	reported := map[hcl.Range]bool{} // the instances of one for_each share their blocks
	for _, s := range c.Services {
		for _, t := range c.Targets[s.Name] {
			if !toolSet[t.Tool] && !reported[t.LabelRange] {
				reported[t.LabelRange] = true
				errorf(t.LabelRange, "Unknown tool", "The service %q has a target for the tool %q, which chronicle does not know.%s Declare it with a tool block if it is a new agent.", s.Name, t.Tool, didYouMean(t.Tool, tools))
			}
		}
	}
	for _, k := range c.Links {
		r := l.linkRanges[k]
		listed := map[string]bool{}
		for _, t := range k.Tools {
			switch {
			case t == All && listed[t]:
				errorf(r.tools, "Tool listed twice", "The link %q lists \"*\" more than once.", k.Name)
			case t == All:
				// Every tool present on this machine.
			case !toolSet[t]:
				errorf(r.tools, "Unknown tool", "The link %q names the tool %q, which chronicle does not know.%s Declare it with a tool block if it is a new agent.", k.Name, t, didYouMean(t, tools))
			case listed[t]:
				errorf(r.tools, "Tool listed twice", "The link %q lists the tool %q more than once.", k.Name, t)
			}
			listed[t] = true
		}
		for _, s := range k.Skills {
			if s != "*" && !skillSet[s] {
				errorf(r.skills, "Link to an undeclared skill", "The link %q names the skill %q, which no skill block declares.%s", k.Name, s, didYouMean(s, skills))
			}
		}
		if k.Profile != "" && !profileSet[k.Profile] {
			errorf(r.profile, "Link to an undeclared profile", "The link %q serves the profile %q, which no profile block declares.%s", k.Name, k.Profile, didYouMean(k.Profile, profiles))
		}
		l.checkLinkInstructions(k, r, errorf)
		for _, s := range k.Services {
			if s != All && !serviceSet[s] {
				errorf(r.services, "Link to an undeclared service", "The link %q names the service %q, which no service block declares.%s", k.Name, s, didYouMean(s, services))
			}
		}
	}
}

// checkSkillSource warns when a local skill's folder is missing or not a
// skill. It is a warning, not an error: validate checks the language, and a
// configuration copied without its skills folder is still well formed; plan
// refuses to import a skill that is not there.
func (l *loader) checkSkillSource(s *Skill) {
	errorf := func(rng hcl.Range, summary, detail string, args ...any) {
		l.diags = append(l.diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning, Summary: summary, Detail: fmt.Sprintf(detail, args...), Subject: rng.Ptr(),
		})
	}
	info, err := os.Stat(s.Source)
	switch {
	case err != nil:
		errorf(s.DeclRange, "Skill folder not found", "The source of skill %q, %s, cannot be read: %s.", s.Name, s.Source, unwrapPathError(err))
	case !info.IsDir():
		errorf(s.DeclRange, "Skill source is not a folder", "The source of skill %q, %s, is a file; a skill is a folder with a SKILL.md.", s.Name, s.Source)
	default:
		if _, err := os.Stat(filepath.Join(s.Source, "SKILL.md")); err != nil {
			errorf(s.DeclRange, "Skill folder has no SKILL.md", "The source of skill %q, %s, has no SKILL.md.", s.Name, s.Source)
		}
	}
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func setOf(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
