package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// An Absent block is declared in the configuration but does not exist on
// this machine: its when is false. It was decoded and checked like any
// other block, then left out of the Config.
type Absent struct {
	Kind string // service, skill, link, policy, profile, rule, command or agent
	Name string
	// From is the for_each block and key of an instance
	// (service.github["acme"]); "" for a block without for_each.
	From      string
	DeclRange hcl.Range
	// Skill is, for a skill block, the block as decoded: the lock file,
	// shared by every machine, holds every git skill.
	Skill *Skill
}

// Address is the block's address: service.github.
func (a Absent) Address() string { return a.Kind + "." + a.Name }

// A Dropped reference is what a block on this machine says about an absent
// one (a link naming a service whose when is false): it is left out on
// this machine, and the plan says so once.
type Dropped struct {
	From string // the block that refers: link.everywhere
	To   string // the absent block it names: service.work-db
	// Detail says, in a sentence, what is left out here.
	Detail string
}

// AbsentNames returns the names of the kind's blocks absent on this
// machine: names that are taken, though not in the Config.
func (c *Config) AbsentNames(kind string) []string {
	var out []string
	for _, a := range c.Absent {
		if a.Kind == kind {
			out = append(out, a.Name)
		}
	}
	return out
}

// DeclaredSkills returns every skill block, those absent on this machine
// included.
func (c *Config) DeclaredSkills() []*Skill {
	out := slices.Clone(c.Skills)
	for _, a := range c.Absent {
		if a.Skill != nil {
			out = append(out, a.Skill)
		}
	}
	return out
}

// leaveOutAbsent removes the blocks whose when is false from the
// configuration, and the references the remaining blocks make to them,
// recording each as Dropped. A profile left with none of the services it
// lists is left out too: a profile without services would serve them all.
// A link that serves an absent profile writes no hub entry, for the same
// reason.
func (l *loader) leaveOutAbsent() {
	if len(l.absent) == 0 {
		return
	}
	c := l.cfg
	gone := func(kind, name string) bool { _, ok := l.absent[kind+"."+name]; return ok }
	drop := func(from, to, detail string, args ...any) {
		c.Dropped = append(c.Dropped, Dropped{From: from, To: to, Detail: fmt.Sprintf(detail, args...)})
	}
	// keep returns the names of list that are not absent, dropping the
	// others from what block says.
	keep := func(block, verb, kind string, list []string) []string {
		return slices.DeleteFunc(list, func(name string) bool {
			if !gone(kind, name) {
				return false
			}
			drop(block, kind+"."+name, "%s %s %s.%s, whose when is false on this machine: it is left out here.", block, verb, kind, name)
			return true
		})
	}

	c.Services = slices.DeleteFunc(c.Services, func(s *service.Service) bool {
		if gone("service", s.Name) {
			delete(c.ServiceRanges, s.Name)
			delete(c.Targets, s.Name)
			return true
		}
		return false
	})
	c.Skills = slices.DeleteFunc(c.Skills, func(s *Skill) bool {
		if !gone("skill", s.Name) {
			return false
		}
		a := l.absent["skill."+s.Name]
		a.Skill = s
		l.absent["skill."+s.Name] = a
		for _, n := range s.Include {
			// The names a git skill brings are absent with it.
			if _, known := l.absent["skill."+n]; !known {
				l.absent["skill."+n] = Absent{Kind: "skill", Name: n, DeclRange: s.DeclRange}
			}
		}
		return true
	})
	c.Policies = slices.DeleteFunc(c.Policies, func(p *Policy) bool {
		switch {
		case gone("policy", p.Service):
			return true
		case gone("service", p.Service):
			drop("policy."+p.Service, "service."+p.Service, "The policy %q is for service.%s, whose when is false on this machine: it is left out here.", p.Service, p.Service)
			return true
		}
		return false
	})
	emptied := map[string]bool{}
	c.Profiles = slices.DeleteFunc(c.Profiles, func(p *Profile) bool {
		if gone("profile", p.Name) {
			return true
		}
		listed := len(p.Services)
		p.Services = keep("profile."+p.Name, "lists", "service", p.Services)
		if listed > 0 && len(p.Services) == 0 {
			emptied[p.Name] = true
			drop("profile."+p.Name, "profile."+p.Name, "None of the services profile.%s lists is on this machine, and a profile without services would serve them all: the profile is left out here.", p.Name)
			return true
		}
		return false
	})
	for _, kind := range instruction.Kinds {
		kept := slices.DeleteFunc(c.Instructions(kind), func(in *Instruction) bool { return gone(kind, in.Name) })
		switch kind {
		case instruction.Rule:
			c.Rules = kept
		case instruction.Command:
			c.Commands = kept
		case instruction.Agent:
			c.Agents = kept
		}
	}
	c.Links = slices.DeleteFunc(c.Links, func(k *Link) bool {
		if gone("link", k.Name) {
			return true
		}
		from := "link." + k.Name
		k.Services = keep(from, "names", "service", k.Services)
		k.Skills = keep(from, "names", "skill", k.Skills)
		k.Rules = keep(from, "names", instruction.Rule, k.Rules)
		k.Commands = keep(from, "names", instruction.Command, k.Commands)
		k.Agents = keep(from, "names", instruction.Agent, k.Agents)
		if k.Profile != "" && (gone("profile", k.Profile) || emptied[k.Profile]) {
			drop(from, "profile."+k.Profile, "%s serves profile.%s, which is not on this machine: the link writes no hub entry here (the whole hub would offer more than the profile).", from, k.Profile)
			k.Hub, k.Profile = false, ""
		}
		return false
	})
	for _, a := range l.absent {
		c.Absent = append(c.Absent, a)
	}
	slices.SortFunc(c.Absent, func(a, b Absent) int { return strings.Compare(a.Address(), b.Address()) })
}
