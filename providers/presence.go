package providers

import (
	"sort"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/custom"
)

// Present reports whether p's tool is present on this machine: one of the
// user-level config files its provider lists (Locations, ScopeUser) exists.
// A shared folder never counts (Gemini CLI and Antigravity both live under
// ~/.gemini): only the tool's own file does. The program on PATH is not
// looked at: PATH differs between a login shell and a timer, and presence
// must not (docs/providers.md lists each tool's file).
func Present(sys fsys.Reader, env provider.Env, p provider.Provider) bool {
	user := provider.Env{Home: env.Home, Getenv: env.Getenv}
	for _, loc := range p.Locations(user) {
		if loc.Scope != provider.ScopeUser {
			continue
		}
		if info, err := sys.Stat(loc.File); err == nil && info.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// PresentNames returns the sorted names of the tools of ps present on this
// machine (Present).
func PresentNames(sys fsys.Reader, env provider.Env, ps []provider.Provider) []string {
	var out []string
	for _, p := range ps {
		if Present(sys, env, p) {
			out = append(out, p.Name())
		}
	}
	sort.Strings(out)
	return out
}

// PresentTool reports whether the tool a tool block declares is present:
// its config file exists (Present).
func PresentTool(sys fsys.Reader, env provider.Env, t *config.Tool) bool {
	return Present(sys, env, custom.New(t))
}
