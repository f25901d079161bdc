package opencode

import (
	"os"
	"path/filepath"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "opencode"

// New returns the OpenCode provider.
func New() provider.Provider {
	return &jsontool.Tool{
		Syntax:     refsyntax.OpenCode,
		Locate:     locations,
		Skills:     skills,
		Decode:     decode,
		Encode:     encode,
		Owned:      []string{"type", "command", "environment", "cwd", "url", "headers", "enabled", "timeout"},
		Attributes: map[string]string{"environment": "env"},
		Defaults:   map[string]string{"environment": `{}`, "headers": `{}`, "enabled": `true`},
		Places:     places,
	}
}

func locations(env provider.Env) []provider.Location {
	var out []provider.Location
	for _, file := range files(filepath.Join(jsontool.ConfigHome(env), "opencode")) {
		out = append(out, jsontool.UserFile(tool, file, "mcp"))
	}
	for _, p := range env.Projects {
		for _, file := range files(p) {
			out = append(out, provider.Location{Tool: tool, Scope: provider.ScopeProject, Project: p, File: file, KeyPath: []string{"mcp"}})
		}
	}
	return out
}

// files returns the config files of dir: the existing ones, .jsonc first,
// or opencode.json when there is none.
func files(dir string) []string {
	var out []string
	for _, name := range []string{"opencode.jsonc", "opencode.json"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			out = append(out, filepath.Join(dir, name))
		}
	}
	if out == nil {
		out = []string{filepath.Join(dir, "opencode.json")}
	}
	return out
}

func skills(env provider.Env) []provider.SkillDir {
	out := []provider.SkillDir{jsontool.UserSkills(tool, filepath.Join(jsontool.ConfigHome(env), "opencode", "skills"))}
	return append(out, jsontool.ProjectSkills(env, tool, filepath.Join(".opencode", "skills"))...)
}

func decode(f *jsontool.Fields, e *provider.Entry) {
	if on, set := f.Bool("enabled"); set {
		e.Enabled = on
	}
	e.Timeout = f.Duration("timeout", time.Millisecond)
	if f.Text("type") == "remote" || (!f.Has("type") && f.Has("url")) {
		e.Transport = service.HTTP
		f.Remote(e, "url")
		return
	}
	e.Transport = service.Stdio
	if cmd := f.Strings("command"); len(cmd) > 0 {
		e.Command = cmd[0] // a command is plain text, as in every tool
		e.Args = f.Values("command")[1:]
	}
	e.Env = f.Map("environment")
	e.Cwd = f.Text("cwd")
}

func encode(e provider.Entry, _ *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.RefuseUnlisted(e, true, false, true)
	var o jsontool.Object
	switch e.Transport {
	case service.Stdio:
		o.Add("type", "local")
		o.Add("command", c.Values("command", append([]secret.Value{secret.Literal(e.Command)}, e.Args...)))
		if len(e.Env) > 0 {
			o.Add("environment", c.Map("environment", e.Env))
		}
		if e.Cwd != "" {
			o.Add("cwd", e.Cwd)
		}
	case service.HTTP, service.SSE:
		o.Add("type", "remote")
		c.Remote(&o, e, "url")
	default:
		c.Refuse(true, "transport "+e.Transport)
	}
	if !e.Enabled {
		o.Add("enabled", false)
	}
	if e.Timeout > 0 {
		o.Add("timeout", e.Timeout.Milliseconds())
	}
	return o
}
