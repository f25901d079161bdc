package custom

import (
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/codex"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

// New returns the provider a tool block declares.
func New(t *config.Tool) provider.Provider {
	keyPath := strings.Split(t.ServersKey, ".")
	locate := func(env provider.Env) []provider.Location {
		var locs []provider.Location
		if t.Config != "" {
			locs = append(locs, provider.Location{Tool: t.Name, Scope: provider.ScopeUser, File: t.Config, KeyPath: keyPath})
		}
		if t.ProjectConfig != "" {
			for _, p := range env.Projects {
				locs = append(locs, provider.Location{
					Tool: t.Name, Scope: provider.ScopeProject, Project: p,
					File: filepath.Join(p, t.ProjectConfig), KeyPath: keyPath,
				})
			}
		}
		return locs
	}
	skills := func(env provider.Env) []provider.SkillDir {
		var dirs []provider.SkillDir
		if t.SkillsDir != "" {
			dirs = append(dirs, provider.SkillDir{Tool: t.Name, Scope: provider.ScopeUser, Dir: t.SkillsDir})
		}
		if t.ProjectSkillsDir != "" {
			for _, p := range env.Projects {
				dirs = append(dirs, provider.SkillDir{Tool: t.Name, Scope: provider.ScopeProject, Project: p, Dir: filepath.Join(p, t.ProjectSkillsDir)})
			}
		}
		return dirs
	}
	if t.Format == config.FormatTOML {
		return &tomlTool{Provider: codex.New(), name: t.Name, locate: locate, skills: skills}
	}
	return &jsontool.Tool{
		Syntax: refsyntax.Syntax{Tool: t.Name},
		Locate: locate,
		Skills: skills,
		Decode: jsontool.DecodeTyped,
		Encode: func(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
			typed := e.Transport == service.SSE || (old != nil && old.Has("type"))
			return jsontool.EncodeTyped(e, c, typed, "url")
		},
		Owned:    []string{"type", "command", "args", "env", "url", "headers"},
		Defaults: map[string]string{"type": `"stdio"`, "args": `[]`, "env": `{}`, "headers": `{}`},
	}
}

// A tomlTool reads and writes entries in Codex's shape, at the tool's own
// files and key path.
type tomlTool struct {
	codex.Provider
	name   string
	locate func(provider.Env) []provider.Location
	skills func(provider.Env) []provider.SkillDir
}

func (t *tomlTool) Name() string                                   { return t.name }
func (t *tomlTool) Locations(env provider.Env) []provider.Location { return t.locate(env) }
func (t *tomlTool) SkillDirs(env provider.Env) []provider.SkillDir { return t.skills(env) }

// Instructions returns none: a tool block declares MCP and skills places
// only.
func (t *tomlTool) Instructions(provider.Env) []provider.Place { return nil }
