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

// New returns the OpenCode provider: one tool, two layouts of its file
// (layout.go).
func New() provider.Provider {
	return &openCode{v1: v1(), v2: v2()}
}

// v1 is OpenCode 1's layout: servers under "mcp". "servers" and "timeout"
// there are OpenCode 2's settings, never servers.
func v1() *jsontool.Tool {
	return &jsontool.Tool{
		Syntax: refsyntax.OpenCode,
		Locate: locations,
		Skills: skills,
		Decode: decode,
		Encode: encode,
		Owned:  []string{"type", "command", "environment", "cwd", "url", "headers", "enabled", "timeout"},
		// OpenCode 2's switch: modelled in both layouts, so that neither
		// writes it through extra, and kept where it is.
		Reads:      []string{"disabled"},
		Attributes: map[string]string{"environment": "env", "disabled": "enabled"},
		Defaults:   map[string]string{"environment": `{}`, "headers": `{}`, "enabled": `true`},
		Places:     places,
		NotEntries: []string{"servers", "timeout"},
	}
}

func skills(env provider.Env) []provider.SkillDir {
	out := []provider.SkillDir{jsontool.UserSkills(tool, filepath.Join(jsontool.ConfigHome(env), "opencode", "skills"))}
	return append(out, jsontool.ProjectSkills(env, tool, filepath.Join(".opencode", "skills"))...)
}

// locations lists the config files in OpenCode 1's layout (openCode's
// Locations decides each file's layout): the user's, then each project's,
// .opencode/opencode.json[c] first (OpenCode 2 reads it before the one at
// the project's root).
func locations(env provider.Env) []provider.Location {
	var out []provider.Location
	for _, file := range files(filepath.Join(jsontool.ConfigHome(env), "opencode")) {
		out = append(out, jsontool.UserFile(tool, file, "mcp"))
	}
	for _, p := range env.Projects {
		for _, file := range append(existing(filepath.Join(p, ".opencode")), files(p)...) {
			out = append(out, provider.Location{Tool: tool, Scope: provider.ScopeProject, Project: p, File: file, KeyPath: []string{"mcp"}})
		}
	}
	return out
}

// files returns the config files of dir: the existing ones, .jsonc first,
// or opencode.json when there is none.
func files(dir string) []string {
	out := existing(dir)
	if out == nil {
		out = []string{filepath.Join(dir, "opencode.json")}
	}
	return out
}

// existing returns the config files of dir that exist, .jsonc first.
func existing(dir string) []string {
	var out []string
	for _, name := range []string{"opencode.jsonc", "opencode.json"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			out = append(out, filepath.Join(dir, name))
		}
	}
	return out
}

// decode reads an OpenCode 1 entry: the fields both layouts share, then
// "enabled" and "timeout" in milliseconds.
func decode(f *jsontool.Fields, e *provider.Entry) {
	if on, set := f.Bool("enabled"); set {
		e.Enabled = on
	}
	e.Timeout = f.Duration("timeout", time.Millisecond)
	decodeShared(f, e)
}

// decodeShared reads the fields of an entry both layouts share.
func decodeShared(f *jsontool.Fields, e *provider.Entry) {
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

// encode writes an OpenCode 1 entry: the shared fields, "enabled": false
// for a server switched off, "timeout" in milliseconds.
func encode(e provider.Entry, _ *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	o := encodeShared(e, c)
	if !e.Enabled {
		o.Add("enabled", false)
	}
	if e.Timeout > 0 {
		o.Add("timeout", e.Timeout.Milliseconds())
	}
	return o
}

// encodeShared writes the fields of an entry both layouts share.
func encodeShared(e provider.Entry, c *jsontool.Encoder) jsontool.Object {
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
	return o
}
