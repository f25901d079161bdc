package providers

import (
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// successions are the vendors' moves of users from one built-in tool to
// another (docs/providers.md): Google ended Gemini CLI's individual tiers
// on 2026-06-18 for Antigravity CLI, and Windsurf became Devin Desktop,
// whose terminal agent is Devin CLI. Both old tools stay supported as long
// as their files exist.
var successions = []provider.Succession{
	{From: "gemini", To: "antigravity"},
	{From: "windsurf", To: "devin"},
}

// Successions returns the vendors' moves whose new tool is present on this
// machine (Present): scan reports what the old tool has and the new one
// lacks only to someone who has the new one.
func Successions(sys fsys.Reader, env provider.Env, ps []provider.Provider) []provider.Succession {
	byName := map[string]provider.Provider{}
	for _, p := range ps {
		byName[p.Name()] = p
	}
	var out []provider.Succession
	for _, s := range successions {
		if to, ok := byName[s.To]; ok && byName[s.From] != nil && Present(sys, env, to) {
			out = append(out, s)
		}
	}
	return out
}
