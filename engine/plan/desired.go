package plan

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// Inputs are what a plan is computed from.
type Inputs struct {
	Config *config.Config
	State  *state.State
	// Tools are the providers by tool name (built-in and tool blocks).
	Tools map[string]provider.Provider
	Env   provider.Env
	// StoreDir is the central skills folder, ~/.chronicle/skills.
	StoreDir string
	// HubCommand is the command line of the hub entry (chronicle serve
	// --stdio …); when empty, HubError says why it cannot be written.
	HubCommand []string
	HubError   string
	// Replace holds the --replace addresses.
	Replace map[string]bool
	// Destroy allows a plan that removes everything chronicle manages.
	Destroy bool
	// Chronicle is the running version, recorded in the plan.
	Chronicle string
	// Offline skips every network call: git skills are not checked
	// against their remotes.
	Offline bool
	// Resolver resolves the auth of private git skills, in memory.
	Resolver secret.Resolver
	// Progress receives clone progress (a terminal's stderr), or nil.
	Progress io.Writer
	// Context bounds network calls; nil means context.Background().
	Context context.Context
}

// PolicyState converts a policy into its state record.
func PolicyState(p *config.Policy) state.Policy {
	return state.Policy{Enabled: p.Enabled, DisabledTools: p.DisabledTools, EnabledTools: p.EnabledTools}
}

// linkAddress is link.<name>["<tool>"].<rest>.
func linkAddress(link, tool, rest string) string {
	return fmt.Sprintf("link.%s[%q].%s", link, tool, rest)
}

// skillDir returns the folder a link puts skills in for a tool: user level,
// or the project's own folder when the link names a project.
func skillDir(p provider.Provider, env provider.Env, project string) (provider.SkillDir, bool) {
	if project != "" {
		env.Projects = []string{project}
	}
	for _, d := range p.SkillDirs(env) {
		if project == "" && d.Scope == provider.ScopeUser {
			return d, true
		}
		if project != "" && d.Scope == provider.ScopeProject && d.Project == project {
			return d, true
		}
	}
	return provider.SkillDir{}, false
}

// entryLocation returns the config file a link writes entries to for a tool.
func entryLocation(p provider.Provider, env provider.Env, project string) (provider.Location, bool) {
	if project != "" {
		env.Projects = []string{project}
	}
	for _, loc := range p.Locations(env) {
		if project == "" && loc.Scope == provider.ScopeUser {
			return loc, true
		}
		if project != "" && loc.Scope == provider.ScopeProject && loc.Project == project {
			return loc, true
		}
	}
	return provider.Location{}, false
}

// linkedSkills returns the skill names a link takes, sorted.
func linkedSkills(cfg *config.Config, l *config.Link) []string {
	if l.AllSkills() {
		names := cfg.SkillNames()
		sort.Strings(names)
		return names
	}
	return l.Skills
}

// storePath is the central copy of a skill.
func storePath(store, name string) string { return filepath.Join(store, name) }
