package windsurf

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "windsurf"

// New returns the Windsurf provider.
func New() provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.Windsurf,
		Locate: func(env provider.Env) []provider.Location {
			return []provider.Location{jsontool.UserFile(tool, filepath.Join(env.Home, ".codeium", "windsurf", "mcp_config.json"), "mcpServers")}
		},
		Decode:     decode,
		Encode:     encode,
		Owned:      []string{"command", "args", "env", "serverUrl", "url", "headers", "disabled", "disabledTools"},
		Attributes: map[string]string{"serverUrl": "url", "disabled": "enabled", "disabledTools": "disabled_tools"},
		Defaults: map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`,
			"disabled": `false`, "disabledTools": `[]`},
		Places: places,
	}
}

func decode(f *jsontool.Fields, e *provider.Entry) {
	urlKey := urlKeyOf(f)
	e.Transport = service.Stdio
	if f.Has(urlKey) {
		e.Transport = service.HTTP
	}
	f.Stdio(e, "env")
	f.Remote(e, urlKey)
	disabled, _ := f.Bool("disabled")
	e.Enabled = !disabled
	e.DisabledTools = f.Strings("disabledTools")
}

// urlKeyOf is "url" for an entry that uses it, else "serverUrl".
func urlKeyOf(f *jsontool.Fields) string {
	if f != nil && f.Has("url") && !f.Has("serverUrl") {
		return "url"
	}
	return "serverUrl"
}

func encode(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.Refuse(e.EnabledTools != nil, "a tool allow list (it has disabledTools only)")
	deny, enabled := e.DisabledTools, e.Enabled
	e.EnabledTools, e.DisabledTools, e.Enabled = nil, nil, true
	o := jsontool.EncodeTyped(e, c, false, urlKeyOf(old))
	if !enabled {
		o.Add("disabled", true)
	}
	if deny != nil {
		o.Add("disabledTools", deny)
	}
	return o
}
