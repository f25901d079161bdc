package junie

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "junie"

// New returns the Junie provider.
func New() provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.Junie,
		Locate: func(env provider.Env) []provider.Location {
			user := jsontool.UserFile(tool, filepath.Join(env.Home, ".junie", "mcp", "mcp.json"), "mcpServers")
			return append([]provider.Location{user}, jsontool.ProjectFiles(env, tool, filepath.Join(".junie", "mcp", "mcp.json"), "mcpServers")...)
		},
		Skills: func(env provider.Env) []provider.SkillDir {
			user := jsontool.UserSkills(tool, filepath.Join(env.Home, ".junie", "skills"))
			return append([]provider.SkillDir{user}, jsontool.ProjectSkills(env, tool, filepath.Join(".junie", "skills"))...)
		},
		Places:   places,
		Decode:   decode,
		Encode:   encode,
		Owned:    []string{"command", "args", "env", "url", "headers", "enabled"},
		Defaults: map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`, "enabled": `true`},
	}
}

func decode(f *jsontool.Fields, e *provider.Entry) {
	e.Transport = service.Stdio
	if f.Has("url") && !f.Has("command") {
		e.Transport = service.HTTP
	}
	f.Stdio(e, "env")
	f.Remote(e, "url")
	if enabled, set := f.Bool("enabled"); set {
		e.Enabled = enabled
	}
}

// encode writes an entry switched on. "enabled" is read, but never
// written as the way to switch a server off: one implementer finds no
// such flag in Junie's MCP file and Junie's pages document none, so an
// edit refuses a disabled entry (decision 0130); chronicle switches a
// server off by removing its entry, as for every tool.
func encode(e provider.Entry, _ *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	if e.Transport == service.SSE {
		e.Transport = service.HTTP // Junie picks the remote transport itself
	}
	return jsontool.EncodeTyped(e, c, false, "url")
}
