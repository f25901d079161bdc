package console

import (
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/skillhub"
)

// A Workspace is what the console reads besides the state: chronicle's folder
// and the tools of this machine, for the Skills Hub and the takeover review.
// cmd wires the providers in; the hub never chooses them itself (SPEC §2).
type Workspace struct {
	// ChronicleHome is ~/.chronicle: the central store, snapshots,
	// skills-meta.json and state.lock.
	ChronicleHome string
	// KnownTools are the built-in tools' names, for loading a configuration.
	KnownTools []string
	// Tools returns the environment (home, projects) and the providers for
	// a configuration; cfg nil means the built-in tools only.
	Tools func(cfg *config.Config) (provider.Env, []provider.Provider)
	// Lists reads the lists of permission rules some tools keep beside
	// their MCP config (plan.Inputs.Lists), as the CLI's plan does.
	Lists provider.ListEditor
	// OAuth is how each tool logs in by itself to an OAuth service
	// (plan.Inputs.OAuth), as the CLI's plan has it.
	OAuth provider.OAuthTable
	// LoadOptions, when set, returns the options a configuration is loaded
	// with on this machine: its facts and machine file, read anew on each
	// call. The review sets Home, Getenv and KnownTools itself.
	LoadOptions func() config.Options
	// Successions, when set, returns the vendors' moves of users between
	// tools to report in the review's scan (scan.Options.Successions),
	// as chronicle scan reports them.
	Successions func(env provider.Env, tools []provider.Provider) []provider.Succession
	// HubCommand is the command line a tool runs to start the hub (see
	// plan.Inputs); when empty, HubError says why there is none.
	HubCommand []string
	HubError   string
}

// skillMachine returns the machine as the Skills Hub lists it, with the
// state the hub serves; false when the hub was started without a Workspace.
func (h *API) skillMachine() (skillhub.Machine, bool) {
	m := h.opts.Workspace
	if m == nil {
		return skillhub.Machine{}, false
	}
	env, tools := m.Tools(nil)
	st := h.hub.State()
	return skillhub.Machine{ChronicleHome: m.ChronicleHome, Env: env, Tools: tools, State: st}, true
}
