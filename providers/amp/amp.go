package amp

import (
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "amp"

// serversKey is Amp's flat settings key: one key, not the path amp → mcpServers.
const serversKey = "amp.mcpServers"

// New returns the Amp provider.
func New() provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.Amp,
		Locate: func(env provider.Env) []provider.Location {
			user := jsontool.UserFile(tool, settingsFile(env), serversKey)
			return append([]provider.Location{user}, jsontool.ProjectFiles(env, tool, filepath.Join(".amp", "settings.json"), serversKey)...)
		},
		Skills: func(env provider.Env) []provider.SkillDir {
			user := jsontool.UserSkills(tool, filepath.Join(env.Home, ".config", "agents", "skills"))
			projects := jsontool.ProjectSkills(env, tool, filepath.Join(".agents", "skills"))
			for i := range projects {
				projects[i].SharedWith = []string{"agents", "codex"}
			}
			return append([]provider.SkillDir{user}, projects...)
		},
		Places:     places,
		Decode:     decode,
		Encode:     encode,
		Owned:      []string{"type", "command", "args", "env", "url", "headers", "disabled", "includeTools"},
		Defaults:   map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`, "disabled": `false`, "includeTools": `[]`},
		Attributes: map[string]string{"disabled": "enabled", "includeTools": "enabled_tools"},
	}
}

// settingsFile is $AMP_SETTINGS_FILE when set, else ~/.config/amp/settings.json
// on every platform (%USERPROFILE%\.config\amp\settings.json on Windows).
func settingsFile(env provider.Env) string {
	if env.Getenv != nil {
		if p, ok := env.Getenv("AMP_SETTINGS_FILE"); ok && strings.TrimSpace(p) != "" {
			p = strings.TrimSpace(p)
			if p == "~" || strings.HasPrefix(p, "~/") {
				p = filepath.Join(env.Home, p[1:])
			}
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
			return p
		}
	}
	return filepath.Join(env.Home, ".config", "amp", "settings.json")
}

func decode(f *jsontool.Fields, e *provider.Entry) {
	jsontool.DecodeTyped(f, e)
	disabled, _ := f.Bool("disabled")
	e.Enabled = !disabled
	if tools := f.Strings("includeTools"); len(tools) > 0 {
		e.EnabledTools = tools
	}
}

func encode(e provider.Entry, old *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.Refuse(e.DisabledTools != nil, "a tool deny list (it has includeTools, an allow list, only)")
	allow, enabled := e.EnabledTools, e.Enabled
	e.EnabledTools, e.DisabledTools, e.Enabled = nil, nil, true
	typed := old != nil && old.Has("type")
	if e.Transport == service.SSE && !typed {
		e.Transport = service.HTTP // Amp picks the remote transport itself
	}
	o := jsontool.EncodeTyped(e, c, typed, "url")
	if !enabled {
		o.Add("disabled", true)
	}
	if allow != nil {
		o.Add("includeTools", allow)
	}
	return o
}
