package gemini

import (
	"path/filepath"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "gemini"

// New returns the Gemini CLI provider.
//
// Entries of a project's settings consult the ~/.gemini of the Env last
// given to Locations for exclusions.
func New() provider.Provider {
	g := &gemini{}
	return &jsontool.Tool{
		Syntax: refsyntax.Gemini,
		Locate: g.locations,
		Skills: func(env provider.Env) []provider.SkillDir {
			return []provider.SkillDir{jsontool.UserSkills(tool, filepath.Join(env.Home, ".gemini", "skills"))}
		},
		Decode: decode,
		Encode: encode,
		Owned: []string{"type", "command", "args", "env", "cwd", "url", "httpUrl", "headers", "timeout",
			"includeTools", "excludeTools"},
		Attributes: map[string]string{"httpUrl": "url", "includeTools": "enabled_tools", "excludeTools": "disabled_tools"},
		Defaults:   map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`},
		Enable:     g.enable,
		Places:     places,
	}
}

// gemini remembers the user's ~/.gemini folder.
type gemini struct {
	userDir jsontool.Memo
}

func (g *gemini) locations(env provider.Env) []provider.Location {
	dir := filepath.Join(env.Home, ".gemini")
	g.userDir.Set(dir)
	user := jsontool.UserFile(tool, filepath.Join(dir, "settings.json"), "mcpServers")
	return append([]provider.Location{user}, jsontool.ProjectFiles(env, tool, filepath.Join(".gemini", "settings.json"), "mcpServers")...)
}

func decode(f *jsontool.Fields, e *provider.Entry) {
	switch {
	case f.Has("command"):
		e.Transport = service.Stdio
		f.Stdio(e, "env")
		e.Cwd = f.Text("cwd")
	case f.Has("httpUrl"):
		e.Transport = service.HTTP
		f.Remote(e, "httpUrl")
	default:
		e.Transport = service.SSE
		if f.Text("type") == service.HTTP {
			e.Transport = service.HTTP
		}
		f.Remote(e, "url")
	}
	e.Timeout = f.Duration("timeout", time.Millisecond)
	e.EnabledTools = f.Strings("includeTools")
	e.DisabledTools = f.Strings("excludeTools")
}

func encode(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.RefuseUnlisted(e, true, true, false)
	var o jsontool.Object
	switch e.Transport {
	case service.Stdio:
		c.Stdio(&o, e, "env")
		if e.Cwd != "" {
			o.Add("cwd", e.Cwd)
		}
	case service.HTTP:
		if old != nil && old.Has("url") && !old.Has("httpUrl") {
			o.Add("type", service.HTTP)
			c.Remote(&o, e, "url")
		} else {
			c.Remote(&o, e, "httpUrl")
		}
	case service.SSE:
		if old != nil && old.Has("type") {
			o.Add("type", service.SSE)
		}
		c.Remote(&o, e, "url")
	default:
		c.Refuse(true, "transport "+e.Transport)
	}
	if e.Timeout > 0 {
		o.Add("timeout", e.Timeout.Milliseconds())
	}
	if e.EnabledTools != nil {
		o.Add("includeTools", e.EnabledTools)
	}
	if e.DisabledTools != nil {
		o.Add("excludeTools", e.DisabledTools)
	}
	return o
}
