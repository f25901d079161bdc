package zed

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "zed"

// New returns the Zed provider.
func New() provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.Zed,
		Locate: func(env provider.Env) []provider.Location {
			user := jsontool.UserFile(tool, filepath.Join(jsontool.ConfigHome(env), "zed", "settings.json"), "context_servers")
			return append([]provider.Location{user}, jsontool.ProjectFiles(env, tool, filepath.Join(".zed", "settings.json"), "context_servers")...)
		},
		Decode:   decode,
		Encode:   encode,
		Owned:    []string{"command", "args", "env", "url", "headers", "enabled"},
		Reads:    []string{"source"},
		Defaults: map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`, "enabled": `true`},
		Places:   places,
	}
}

func decode(f *jsontool.Fields, e *provider.Entry) {
	if on, set := f.Bool("enabled"); set {
		e.Enabled = on
	}
	switch {
	case f.Text("source") == "extension":
		e.Transport = service.Extension
	case f.Has("url"):
		e.Transport = service.HTTP
		f.Remote(e, "url")
	default:
		e.Transport = service.Stdio
		if _, legacy := f.Raw("command").(map[string]any); legacy {
			cmd := f.Object("command")
			e.Command = cmd.Text("path")
			e.Args = cmd.Values("args")
			e.Env = cmd.Map("env")
			return
		}
		f.Stdio(e, "env")
	}
}

func encode(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.Refuse(e.Transport == service.Extension || (old != nil && old.Text("source") == "extension"),
		"an extension-provided server (the extension owns it)")
	c.Refuse(e.Transport == service.SSE, "an SSE server (http only)")
	enabled := e.Enabled
	e.Enabled = true
	o := jsontool.EncodeTyped(e, c, false, "url")
	if !enabled {
		o.Add("enabled", false)
	}
	return o
}
