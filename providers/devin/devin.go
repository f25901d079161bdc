package devin

import (
	"path/filepath"
	"runtime"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "devin"

// New returns the Devin CLI provider.
func New() provider.Provider { return newFor(runtime.GOOS) }

func newFor(goos string) provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.Devin,
		Locate: func(env provider.Env) []provider.Location {
			locs := []provider.Location{jsontool.UserFile(tool, filepath.Join(configDir(env, goos), "mcp_config.json"), "mcpServers")}
			locs = append(locs, jsontool.ProjectFiles(env, tool, filepath.Join(".devin", "mcp_config.json"), "mcpServers")...)
			for _, loc := range jsontool.ProjectFiles(env, tool, filepath.Join(".devin", "mcp_config.local.json"), "mcpServers") {
				loc.Scope = provider.ScopeLocal
				locs = append(locs, loc)
			}
			return locs
		},
		Skills: func(env provider.Env) []provider.SkillDir {
			user := jsontool.UserSkills(tool, filepath.Join(configDir(env, goos), "skills"))
			return append([]provider.SkillDir{user}, jsontool.ProjectSkills(env, tool, filepath.Join(".devin", "skills"))...)
		},
		Places:     places(goos),
		Decode:     decode,
		Encode:     encode,
		Owned:      []string{"command", "args", "env", "url", "serverUrl", "transport", "headers", "disabledTools"},
		Attributes: map[string]string{"serverUrl": "url", "transport": "transport", "disabledTools": "disabled_tools"},
		Defaults: map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`,
			"transport": `"http"`, "disabledTools": `[]`},
	}
}

// configDir is Devin's user folder: %APPDATA%\devin on Windows, else
// $XDG_CONFIG_HOME/devin or ~/.config/devin.
func configDir(env provider.Env, goos string) string {
	if goos == "windows" {
		if env.Getenv != nil {
			if dir, ok := env.Getenv("APPDATA"); ok && filepath.IsAbs(dir) {
				return filepath.Join(dir, "devin")
			}
		}
		return filepath.Join(env.Home, "AppData", "Roaming", "devin")
	}
	return filepath.Join(jsontool.ConfigHome(env), "devin")
}

func decode(f *jsontool.Fields, e *provider.Entry) {
	urlKey := urlKeyOf(f)
	switch {
	case f.Has("command") || !f.Has(urlKey):
		e.Transport = service.Stdio
		f.Stdio(e, "env")
	default:
		e.Transport = service.HTTP
		if f.Text("transport") == service.SSE {
			e.Transport = service.SSE
		}
		f.Remote(e, urlKey)
	}
	e.DisabledTools = f.Strings("disabledTools")
}

// urlKeyOf is "serverUrl" for an entry that uses it, else "url".
func urlKeyOf(f *jsontool.Fields) string {
	if f != nil && f.Has("serverUrl") && !f.Has("url") {
		return "serverUrl"
	}
	return "url"
}

func encode(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.Refuse(e.EnabledTools != nil, "a tool allow list (it has disabledTools only)")
	c.RefuseUnlisted(e, false, true, false)
	var o jsontool.Object
	switch e.Transport {
	case service.Stdio:
		c.Stdio(&o, e, "env")
	case service.HTTP, service.SSE:
		c.Remote(&o, e, urlKeyOf(old))
		if e.Transport == service.SSE || (old != nil && old.Has("transport")) {
			o.Add("transport", e.Transport)
		}
	default:
		c.Refuse(true, "transport "+e.Transport)
	}
	if e.DisabledTools != nil {
		o.Add("disabledTools", e.DisabledTools)
	}
	return o
}
