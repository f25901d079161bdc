package plan

import (
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/names"
)

// A ContextCost is what a tool a link writes the hub into will see through
// it — how many tools, and what their definitions cost in its model's
// context — estimated from the catalogue cache the HTTP hub writes (never
// from the tokenizer). A user-level entry counts the global services; a
// project's entry those of its project too.
type ContextCost struct {
	Address string `json:"address"` // the hub entry's address
	Tool    string `json:"tool"`
	// Project is the link's project folder ("" at user level).
	Project string `json:"project,omitempty"`
	// Seen is the estimate; Seen.Known is false when the catalogue cache
	// lacks a service the tool will see (or there is no cache), and the
	// counts are then a lower bound.
	exposure.Seen
}

// contextCosts estimates, for every hub entry the configuration wants, what
// its tool will see, with the configuration's services, policies, exposure
// settings and profiles.
func (b *builder) contextCosts() {
	setup := setupOf(b.cfg)
	listings := b.in.Catalog.Listings()
	for _, l := range b.cfg.Links {
		if !l.Hub || b.elsewhere[l] {
			continue
		}
		for _, tool := range b.cfg.LinkTools(l) {
			if _, ok := b.tools[tool]; !ok {
				continue
			}
			seen := setup.Sees(listings, l.Profile, l.Project)
			b.plan.Context = append(b.plan.Context, ContextCost{
				Address: linkAddress(l.Name, tool, "hub"), Tool: tool, Project: l.Project, Seen: seen,
			})
		}
	}
}

// setupOf is what the configuration says the hub will offer: its enabled
// services (chronova too, when declared) with their policies, the exposure
// settings and the profiles.
func setupOf(cfg *config.Config) exposure.Setup {
	s := exposure.Setup{Profiles: map[string]*exposure.Profile{}}
	policies := map[string]*config.Policy{}
	for _, p := range cfg.Policies {
		policies[p.Service] = p
	}
	add := func(name, project string) {
		p := policies[name]
		if p != nil && p.Enabled != nil && !*p.Enabled {
			return
		}
		svc := exposure.Offer{Scoped: exposure.Scoped{Name: name, Project: project}}
		if p != nil {
			svc.DisabledTools, svc.EnabledTools = p.DisabledTools, p.EnabledTools
		}
		s.Offers = append(s.Offers, svc)
	}
	for _, svc := range cfg.Services {
		if svc.Enabled {
			add(svc.Name, svc.Project)
		}
	}
	if cfg.Chronova != nil {
		add(names.Chronova, "")
	}
	if h := cfg.Hub; h != nil {
		s.Settings = exposure.Settings{Mode: h.Tools, Threshold: h.SearchThreshold, Always: h.Always}
	}
	for _, p := range cfg.Profiles {
		s.Profiles[p.Name] = &exposure.Profile{Name: p.Name, Services: p.Services, Tools: p.Tools, Exposure: p.Exposure}
	}
	return s
}
