package apply

import "github.com/chronicle-dev/chronicle/engine/plan"

// setting records a state-only change.
func (a *applier) setting(c plan.Change) {
	name := ""
	if c.Kind == plan.KindService || c.Kind == plan.KindPolicy || c.Kind == plan.KindProfile {
		name = c.Address[len(c.Kind)+1:]
	}
	switch c.Kind {
	case plan.KindService:
		if c.Action == plan.Delete {
			delete(a.st.Services, name)
		} else {
			a.st.Services[name] = *c.Service
		}
	case plan.KindPolicy:
		if c.Action == plan.Delete {
			delete(a.st.Policies, name)
		} else {
			a.st.Policies[name] = *c.Policy
		}
	case plan.KindProfile:
		if c.Action == plan.Delete {
			delete(a.st.Profiles, name)
		} else {
			a.st.Profiles[name] = *c.Profile
		}
	case plan.KindHub:
		a.st.Hub = c.Hub
		if c.Action == plan.Delete {
			a.st.Hub = nil
		}
	case plan.KindChronova:
		a.st.Chronova = c.Chronova
		if c.Action == plan.Delete {
			a.st.Chronova = nil
		}
	}
}
