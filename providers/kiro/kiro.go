package kiro

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "kiro"

// New returns the Kiro provider.
func New() provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.Kiro,
		Locate: func(env provider.Env) []provider.Location {
			rel := filepath.Join(".kiro", "settings", "mcp.json")
			user := jsontool.UserFile(tool, filepath.Join(env.Home, rel), "mcpServers")
			return append([]provider.Location{user}, jsontool.ProjectFiles(env, tool, rel, "mcpServers")...)
		},
		Skills: func(env provider.Env) []provider.SkillDir {
			rel := filepath.Join(".kiro", "skills")
			user := jsontool.UserSkills(tool, filepath.Join(env.Home, rel))
			return append([]provider.SkillDir{user}, jsontool.ProjectSkills(env, tool, rel)...)
		},
		Places:     places,
		Decode:     decode,
		Encode:     encode,
		Owned:      []string{"type", "command", "args", "env", "url", "headers", "disabled", "disabledTools"},
		Attributes: map[string]string{"disabled": "enabled", "disabledTools": "disabled_tools"},
		Defaults: map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`,
			"disabled": `false`, "disabledTools": `[]`},
	}
}

func decode(f *jsontool.Fields, e *provider.Entry) {
	jsontool.DecodeTyped(f, e)
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
		o.Add("command", e.Command)
		o.Add("args", c.Values("args", e.Args)) // required, even when empty
		if len(e.Env) > 0 {
			o.Add("env", c.Map("env", e.Env))
		}
	case service.HTTP, service.SSE:
		if e.Transport == service.SSE || (old != nil && old.Has("type")) {
			o.Add("type", e.Transport)
		}
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
