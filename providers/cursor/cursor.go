package cursor

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "cursor"

// New returns the Cursor provider.
func New() provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.Cursor,
		Locate: func(env provider.Env) []provider.Location {
			user := jsontool.UserFile(tool, filepath.Join(env.Home, ".cursor", "mcp.json"), "mcpServers")
			return append([]provider.Location{user}, jsontool.ProjectFiles(env, tool, filepath.Join(".cursor", "mcp.json"), "mcpServers")...)
		},
		Skills: func(env provider.Env) []provider.SkillDir {
			return []provider.SkillDir{jsontool.UserSkills(tool, filepath.Join(env.Home, ".cursor", "skills"))}
		},
		Decode:   jsontool.DecodeTyped,
		Encode:   encode,
		Owned:    []string{"type", "command", "args", "env", "url", "headers"},
		Defaults: map[string]string{"type": `"stdio"`, "args": `[]`, "env": `{}`, "headers": `{}`},
		Places:   places,
	}
}

func encode(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	typed := e.Transport == service.SSE || (old != nil && old.Has("type"))
	return jsontool.EncodeTyped(e, c, typed, "url")
}
