package antigravity

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "antigravity"

// New returns the Antigravity CLI provider.
func New() provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.Antigravity,
		Locate: func(env provider.Env) []provider.Location {
			user := jsontool.UserFile(tool, filepath.Join(env.Home, ".gemini", "config", "mcp_config.json"), "mcpServers")
			locs := append([]provider.Location{user}, pluginLocations(env)...)
			return append(locs, jsontool.ProjectFiles(env, tool, filepath.Join(".agents", "mcp_config.json"), "mcpServers")...)
		},
		Skills: func(env provider.Env) []provider.SkillDir {
			user := jsontool.UserSkills(tool, filepath.Join(env.Home, ".gemini", "antigravity-cli", "skills"))
			user.Files = true
			dirs := append([]provider.SkillDir{user}, pluginSkills(env)...)
			for _, d := range jsontool.ProjectSkills(env, tool, filepath.Join(".agents", "skills")) {
				d.SharedWith, d.Files = []string{"agents", "codex"}, true
				dirs = append(dirs, d)
			}
			return dirs
		},
		Places:     places,
		Decode:     decode,
		Encode:     encode,
		Owned:      []string{"type", "command", "args", "env", "serverUrl", "url", "headers", "disabled", "disabledTools"},
		Attributes: map[string]string{"serverUrl": "url", "disabled": "enabled", "disabledTools": "disabled_tools"},
		Defaults: map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`,
			"disabled": `false`, "disabledTools": `[]`},
	}
}

// decode reads the three shapes agy accepts: serverUrl (it wins over
// command), command, and url with an optional type.
func decode(f *jsontool.Fields, e *provider.Entry) {
	switch {
	case f.Has("serverUrl"):
		e.Transport = service.HTTP
		f.Remote(e, "serverUrl")
	case f.Has("command") || !f.Has("url"):
		e.Transport = service.Stdio
		f.Stdio(e, "env")
	default:
		e.Transport = service.HTTP
		if f.Text("type") == service.SSE {
			e.Transport = service.SSE
		}
		f.Remote(e, "url")
	}
	disabled, _ := f.Bool("disabled")
	e.Enabled = !disabled
	e.DisabledTools = f.Strings("disabledTools")
}

func encode(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.Refuse(e.EnabledTools != nil, "a tool allow list (it has disabledTools only)")
	c.RefuseUnlisted(e, false, true, true)
	var o jsontool.Object
	switch e.Transport {
	case service.Stdio:
		c.Stdio(&o, e, "env")
	case service.HTTP:
		if old != nil && old.Has("url") && !old.Has("serverUrl") {
			// The replaced entry spells it url: keep its spelling.
			if old.Has("type") {
				o.Add("type", service.HTTP)
			}
			c.Remote(&o, e, "url")
		} else {
			c.Remote(&o, e, "serverUrl")
		}
	case service.SSE:
		o.Add("type", service.SSE)
		c.Remote(&o, e, "url")
	default:
		c.Refuse(true, "transport "+e.Transport)
	}
	if !e.Enabled {
		o.Add("disabled", true)
	}
	if e.DisabledTools != nil {
		o.Add("disabledTools", e.DisabledTools)
	}
	return o
}
