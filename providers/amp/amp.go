package amp

import (
	"os"
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
		Locate: locations,
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

// Notes of a folder holding both settings.json and settings.jsonc: Amp's
// pages name settings.json "or settings.jsonc" and say nothing of both.
const (
	noteBoth  = "settings.jsonc is here too: Amp documents either file, not both; chronicle writes settings.json and reads settings.jsonc"
	noteOther = "settings.json is here too: chronicle writes that file and reads this one"
)

// locations lists the user settings file ($AMP_SETTINGS_FILE when set)
// and each project's .amp settings file, each followed, where both
// settings.json and settings.jsonc exist, by the .jsonc, read only.
func locations(env provider.Env) []provider.Location {
	var out []provider.Location
	if file, ok := envSettingsFile(env); ok {
		out = append(out, jsontool.UserFile(tool, file, serversKey))
	} else {
		for _, loc := range settingsFiles(filepath.Join(env.Home, ".config", "amp")) {
			loc.Scope = provider.ScopeUser
			out = append(out, loc)
		}
	}
	for _, p := range env.Projects {
		for _, loc := range settingsFiles(filepath.Join(p, ".amp")) {
			loc.Scope, loc.Project = provider.ScopeProject, p
			out = append(out, loc)
		}
	}
	return out
}

// settingsFiles returns the locations of dir's settings file: the .jsonc
// when it is the one there, else settings.json (followed, when the .jsonc
// exists too, by the .jsonc, read only). Comments of either are kept.
func settingsFiles(dir string) []provider.Location {
	json, jsonc := filepath.Join(dir, "settings.json"), filepath.Join(dir, "settings.jsonc")
	at := func(file string) provider.Location {
		return provider.Location{Tool: tool, File: file, KeyPath: []string{serversKey}}
	}
	_, errJSON := os.Lstat(json)
	_, errJSONC := os.Lstat(jsonc)
	switch {
	case errJSONC != nil:
		return []provider.Location{at(json)}
	case errJSON != nil:
		return []provider.Location{at(jsonc)}
	}
	written, other := at(json), at(jsonc)
	written.Note = noteBoth
	other.Note, other.ReadOnly = noteOther, true
	return []provider.Location{written, other}
}

// envSettingsFile is $AMP_SETTINGS_FILE when set (on every platform;
// otherwise the file is in ~/.config/amp, %USERPROFILE%\.config\amp on
// Windows).
func envSettingsFile(env provider.Env) (string, bool) {
	if env.Getenv != nil {
		if p, ok := env.Getenv("AMP_SETTINGS_FILE"); ok && strings.TrimSpace(p) != "" {
			p = strings.TrimSpace(p)
			if p == "~" || strings.HasPrefix(p, "~/") {
				p = filepath.Join(env.Home, p[1:])
			}
			if abs, err := filepath.Abs(p); err == nil {
				return abs, true
			}
			return p, true
		}
	}
	return "", false
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
