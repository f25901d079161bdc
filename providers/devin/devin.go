package devin

import (
	"path/filepath"
	"runtime"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
	"github.com/chronicle-dev/chronicle/providers/windsurf"
)

const tool = "devin"

// New returns the Devin CLI provider.
func New() provider.Provider { return newFor(runtime.GOOS) }

func newFor(goos string) provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.Devin,
		Locate: func(env provider.Env) []provider.Location { return locations(env, goos) },
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
		Deny: denyList,
	}
}

// denyList is the permissions.deny list of the config*.json matching an
// mcp_config*.json: Devin CLI denies an MCP tool with the rule
// mcp__SERVER__TOOL there (docs.devin.ai cli/reference/permissions,
// cli/extensibility/mcp/overview; docs/decisions/0151).
func denyList(loc provider.Location) (provider.DenyList, bool) {
	if loc.ReadOnly {
		return provider.DenyList{}, false
	}
	name, ok := strings.CutPrefix(filepath.Base(loc.File), "mcp_")
	if !ok {
		return provider.DenyList{}, false
	}
	return provider.DenyList{File: filepath.Join(filepath.Dir(loc.File), name), KeyPath: []string{"permissions", "deny"},
		Prefix: "mcp__", Separator: "__"}, true
}

// legacyNote is what scan says of a config*.json holding servers: Devin
// before 3000.3 kept them there; 3000.3 and later move them out to
// mcp_config*.json on startup. chronicle reads them and writes the new
// files (config*.json also holds the user's permissions).
const legacyNote = "Devin < 3000.3 layout: servers under mcpServers in config.json, which Devin 3000.3 and later moves to mcp_config.json on startup; read, never written"

// locations lists, per scope, the mcp_config*.json file a link writes and
// then the config*.json of Devin before 3000.3, read only.
func locations(env provider.Env, goos string) []provider.Location {
	user := func(name string) provider.Location {
		return jsontool.UserFile(tool, filepath.Join(configDir(env, goos), name), "mcpServers")
	}
	project := func(name, scope string) []provider.Location {
		locs := jsontool.ProjectFiles(env, tool, filepath.Join(".devin", name), "mcpServers")
		for i := range locs {
			locs[i].Scope = scope
		}
		return locs
	}
	own := user("mcp_config.json")
	own.Note = windsurf.DesktopNote
	locs := []provider.Location{own}
	locs = append(locs, project("mcp_config.json", provider.ScopeProject)...)
	locs = append(locs, project("mcp_config.local.json", provider.ScopeLocal)...)
	legacy := append([]provider.Location{user("config.json")}, project("config.json", provider.ScopeProject)...)
	legacy = append(legacy, project("config.local.json", provider.ScopeLocal)...)
	for _, loc := range legacy {
		loc.Note, loc.ReadOnly = legacyNote, true
		locs = append(locs, loc)
	}
	return locs
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

// denyRefusal is why a deny list cannot be written into Devin's entry:
// Devin CLI's documented tool control is a permissions deny rule
// mcp__SERVER__TOOL in the matching config*.json, a second file and a list
// shared with the user's own rules, where chronicle writes a policy's deny
// list (denyList; decision 0151); a disabledTools key in the entry is read
// by one peer only, not by Devin's documentation, and would deny nothing.
const denyRefusal = "a tool deny list in its entry (Devin CLI denies MCP tools with permissions deny rules mcp__SERVER__TOOL in config.json, where chronicle writes a policy's disabled_tools: declare the list in a policy, or link the hub)"

func encode(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.Refuse(e.EnabledTools != nil, "a tool allow list")
	c.Refuse(len(e.DisabledTools) > 0, denyRefusal)
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
	return o // disabledTools stays owned: one chronicle wrote before goes
}
