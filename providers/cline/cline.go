package cline

import (
	"path/filepath"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "cline"

// New returns the Cline provider.
func New() provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.Cline,
		Locate: func(env provider.Env) []provider.Location {
			return []provider.Location{jsontool.UserFile(tool, settingsFile(env), "mcpServers")}
		},
		Skills: func(env provider.Env) []provider.SkillDir {
			user := jsontool.UserSkills(tool, filepath.Join(env.Home, ".cline", "skills"))
			return append([]provider.SkillDir{user}, jsontool.ProjectSkills(env, tool, filepath.Join(".cline", "skills"))...)
		},
		Places: places,
		Decode: decode,
		Encode: encode,
		Owned: []string{"type", "transportType", "transport", "command", "args", "cwd", "env",
			"url", "headers", "disabled", "timeout"},
		Defaults:   map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`, "disabled": `false`},
		Attributes: map[string]string{"transportType": "transport", "transport": "transport", "disabled": "enabled"},
		Volatile:   []string{"oauth"},
	}
}

// Cline's names for the transports.
const (
	typeStdio = "stdio"
	typeSSE   = "sse"
	typeHTTP  = "streamableHttp"
)

func decode(f *jsontool.Fields, e *provider.Entry) {
	t := f
	if f.Has("transport") {
		if t = f.Object("transport"); t == nil {
			return // the wrong type is f's error
		}
	}
	typ := t.Text("type")
	if typ == "" && t == f {
		typ = legacyType(f.Text("transportType"))
	}
	switch {
	case typ == typeStdio, typ == "" && t.Has("command"):
		e.Transport = service.Stdio
		t.Stdio(e, "env")
		e.Cwd = t.Text("cwd")
	case typ == typeHTTP:
		e.Transport = service.HTTP
		t.Remote(e, "url")
	case typ == typeSSE, typ == "":
		// A url without a type is Cline's legacy SSE transport.
		e.Transport = service.SSE
		t.Remote(e, "url")
	default:
		e.Transport = typ
	}
	disabled, _ := f.Bool("disabled")
	e.Enabled = !disabled
	e.Timeout = f.Duration("timeout", time.Second)
}

// legacyType maps the old transportType field ("http" meant streamable HTTP).
func legacyType(t string) string {
	if t == "http" {
		return typeHTTP
	}
	return t
}

func encode(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.RefuseUnlisted(e, true, false, true)
	nested := old != nil && old.Has("transport")
	var t jsontool.Object
	switch e.Transport {
	case service.Stdio:
		if nested || old != nil && old.Has("type") {
			t.Add("type", typeStdio)
		}
		c.Stdio(&t, e, "env")
		if e.Cwd != "" {
			t.Add("cwd", e.Cwd)
		}
	case service.HTTP:
		t.Add("type", typeHTTP)
		c.Remote(&t, e, "url")
	case service.SSE:
		t.Add("type", typeSSE)
		c.Remote(&t, e, "url")
	default:
		c.Refuse(true, "transport "+e.Transport)
	}
	o := t
	if nested {
		o = jsontool.Object{{Key: "transport", Value: t}}
	}
	if !e.Enabled {
		o.Add("disabled", true)
	}
	if e.Timeout > 0 {
		o.Add("timeout", seconds(e.Timeout))
	}
	return o
}

// seconds is a timeout in Cline's whole seconds, rounded up.
func seconds(d time.Duration) int64 { return int64((d + time.Second - 1) / time.Second) }
