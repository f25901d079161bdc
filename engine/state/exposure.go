package state

import (
	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/names"
)

// ExposureSetup returns what the state says the hub offers: every enabled
// service (chronova too, when its block was applied) that no policy
// disables, with its policy's tool globs; the exposure settings; the
// profiles.
func (s *State) ExposureSetup() exposure.Setup {
	setup := exposure.Setup{Profiles: map[string]*exposure.Profile{}}
	add := func(name, project string) {
		p := s.Policies[name]
		if p.Enabled != nil && !*p.Enabled {
			return
		}
		setup.Offers = append(setup.Offers, exposure.Offer{
			Scoped: exposure.Scoped{Name: name, Project: project}, DisabledTools: p.DisabledTools, EnabledTools: p.EnabledTools,
		})
	}
	for name, svc := range s.Services {
		if svc.Enabled {
			add(name, svc.Project)
		}
	}
	if s.Chronova != nil {
		add(names.Chronova, "")
	}
	if s.Hub != nil {
		setup.Settings = exposure.Settings{Mode: s.Hub.Tools, Threshold: s.Hub.SearchThreshold, Always: s.Hub.Always}
	}
	for name, p := range s.Profiles {
		setup.Profiles[name] = &exposure.Profile{Name: name, Services: p.Services, Tools: p.Tools, Exposure: p.Exposure}
	}
	return setup
}
