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
		Syntax:     refsyntax.Windsurf,
		Locate:     locations,
		Decode:     decode,
		Encode:     encode,
		Owned:      []string{"command", "args", "env", "serverUrl", "url", "headers", "disabled", "disabledTools"},
		Attributes: map[string]string{"serverUrl": "url", "disabled": "enabled", "disabledTools": "disabled_tools"},
		Defaults: map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`,
			"disabled": `false`, "disabledTools": `[]`},
		Places: places,
	}
}

// DesktopNote is what scan says of each of the three files sources name as
// Devin Desktop's MCP file, when it exists: Windsurf's own page names
// ~/.codeium/windsurf/mcp_config.json, Devin's pages ~/.config/devin
// (Devin CLI's file, shared by Devin Local), and one guide ~/.devin.
const DesktopNote = "one of the three files named as Devin Desktop's MCP file (~/.codeium/windsurf/mcp_config.json, ~/.config/devin/mcp_config.json, ~/.devin/mcp_config.json): this one exists"

// locations lists Windsurf's file, then ~/.devin/mcp_config.json, the
// third name given for Devin Desktop's file: read, never written.
func locations(env provider.Env) []provider.Location {
	own := jsontool.UserFile(tool, filepath.Join(env.Home, ".codeium", "windsurf", "mcp_config.json"), "mcpServers")
	own.Note = DesktopNote
	third := jsontool.UserFile(tool, filepath.Join(env.Home, ".devin", "mcp_config.json"), "mcpServers")
	third.Note, third.ReadOnly, third.Candidate = DesktopNote, true, true
	return []provider.Location{own, third}
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
