package copilot

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "copilot"

// New returns the Copilot CLI provider.
//
// Entries of any scope consult the settings.json of the Copilot home of
// the Env last given to Locations for disabledMcpServers.
func New() provider.Provider {
	c := &copilot{}
	return &jsontool.Tool{
		Syntax: refsyntax.Copilot,
		Locate: c.locations,
		Skills: func(env provider.Env) []provider.SkillDir {
			user := jsontool.UserSkills(tool, filepath.Join(home(env), "skills"))
			return append([]provider.SkillDir{user}, jsontool.ProjectSkills(env, tool, filepath.Join(".github", "skills"))...)
		},
		Places:     places,
		Decode:     decode,
		Encode:     encode,
		Owned:      []string{"type", "command", "args", "env", "cwd", "url", "headers", "tools", "timeout"},
		Attributes: map[string]string{"tools": "enabled_tools"},
		Defaults:   map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`},
		Enable:     c.enable,
	}
}

// copilot remembers the user's Copilot home.
type copilot struct {
	home jsontool.Memo
}

func (c *copilot) locations(env provider.Env) []provider.Location {
	dir := home(env)
	c.home.Set(dir)
	user := jsontool.UserFile(tool, filepath.Join(dir, "mcp-config.json"), "mcpServers")
	return append([]provider.Location{user}, jsontool.ProjectFiles(env, tool, filepath.Join(".github", "mcp.json"), "mcpServers")...)
}

// home is $COPILOT_HOME (which replaces ~/.copilot whole), else ~/.copilot.
func home(env provider.Env) string {
	if env.Getenv != nil {
		if dir, ok := env.Getenv("COPILOT_HOME"); ok && dir != "" {
			if dir == "~" || strings.HasPrefix(dir, "~/") {
				dir = filepath.Join(env.Home, dir[1:])
			}
			if abs, err := filepath.Abs(dir); err == nil {
				return abs
			}
			return dir
		}
	}
	return filepath.Join(env.Home, ".copilot")
}

// enable applies disabledMcpServers of the user settings.json (JSONC).
func (c *copilot) enable(loc provider.Location, _ *jsonfile.Document, files provider.Files, entries []provider.Entry) error {
	dir := c.home.Get()
	if dir == "" {
		dir = filepath.Dir(loc.File)
	}
	settings, err := jsontool.ParsedJSON(files, filepath.Join(dir, "settings.json"))
	if err != nil || settings == nil {
		return err
	}
	off := settings.Strings("disabledMcpServers")
	for i := range entries {
		if slices.Contains(off, entries[i].Name) {
			entries[i].Enabled = false
		}
	}
	return nil
}

func decode(f *jsontool.Fields, e *provider.Entry) {
	switch typ := f.Text("type"); typ {
	case "local", service.Stdio:
		e.Transport = service.Stdio
	case service.HTTP, "streamable-http":
		e.Transport = service.HTTP
	case service.SSE:
		e.Transport = service.SSE
	case "":
		// A remote entry may leave out its type (http since CLI 1.0.x).
		e.Transport = service.Stdio
		if f.Has("url") && !f.Has("command") {
			e.Transport = service.HTTP
		}
	default:
		e.Transport = typ
	}
	f.Stdio(e, "env")
	e.Cwd = f.Text("cwd")
	f.Remote(e, "url")
	if tools := f.Strings("tools"); f.Has("tools") && !slices.Equal(tools, []string{"*"}) {
		e.EnabledTools = tools
	}
	e.Timeout = f.Duration("timeout", time.Millisecond)
}

func encode(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.Refuse(e.DisabledTools != nil, "a tool deny list (it has the tools allow list only)")
	c.RefuseUnlisted(e, true, true, false)
	var o jsontool.Object
	switch e.Transport {
	case service.Stdio:
		typ := service.Stdio
		if old != nil && old.Text("type") == "local" {
			typ = "local"
		}
		o.Add("type", typ)
		o.Add("command", e.Command)
		o.Add("args", c.Values("args", e.Args)) // required, even when empty
		if len(e.Env) > 0 {
			o.Add("env", c.Map("env", e.Env))
		}
		if e.Cwd != "" {
			o.Add("cwd", e.Cwd)
		}
	case service.HTTP, service.SSE:
		o.Add("type", e.Transport)
		c.Remote(&o, e, "url")
	default:
		c.Refuse(true, "transport "+e.Transport)
	}
	tools := []string{"*"}
	if e.EnabledTools != nil {
		tools = e.EnabledTools
	}
	o.Add("tools", tools)
	if e.Timeout > 0 {
		o.Add("timeout", e.Timeout.Milliseconds())
	}
	return o
}
