package goose

import (
	"fmt"
	"maps"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/yamlfile"
)

// Name is the tool's name as written in a link.
const Name = "goose"

// serversKey is the map of goose's extensions.
const serversKey = "extensions"

// A Provider is goose's provider.Provider.
type Provider struct{ goos string }

// New returns goose's provider.
func New() Provider { return Provider{goos: runtime.GOOS} }

var _ provider.Provider = Provider{}

// Name returns "goose".
func (Provider) Name() string { return Name }

// Locations lists goose's one config file.
func (p Provider) Locations(env provider.Env) []provider.Location {
	return []provider.Location{{Tool: Name, Scope: provider.ScopeUser, File: configFile(env, p.goos), KeyPath: []string{serversKey}}}
}

// SkillDirs lists ~/.agents/skills and each project's .agents/skills, the
// folders goose reads first (shared with the agents convention and Codex).
func (Provider) SkillDirs(env provider.Env) []provider.SkillDir {
	shared := []string{"agents", "codex"}
	dirs := []provider.SkillDir{{Tool: Name, Scope: provider.ScopeUser, Dir: filepath.Join(env.Home, ".agents", "skills"), SharedWith: shared}}
	for _, p := range env.Projects {
		dirs = append(dirs, provider.SkillDir{Tool: Name, Scope: provider.ScopeProject, Project: p,
			Dir: filepath.Join(p, ".agents", "skills"), SharedWith: shared})
	}
	return dirs
}

// Parse parses the content of config.yaml (nil: a file that does not exist
// yet).
func (Provider) Parse(file string, src []byte) (provider.Document, error) {
	doc, err := yamlfile.Parse(file, src)
	if err != nil {
		return nil, err
	}
	return document{doc}, nil
}

// Render returns e as the extension goose would store, as YAML.
func (Provider) Render(e provider.Entry) ([]byte, error) {
	fs, err := fields(e)
	if err != nil {
		return nil, fmt.Errorf("goose %q: %w", e.Name, err)
	}
	m, err := build(fs, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("goose %q: %w", e.Name, err)
	}
	return yamlfile.Render(m)
}

// OwnedKeys returns the fields of an extension goose's provider models,
// each with the attribute that sets it.
func (Provider) OwnedKeys() map[string]string { return maps.Clone(attributes) }

// configFile is $GOOSE_PATH_ROOT/config/config.yaml when that is an
// absolute path; else, on Windows, %APPDATA%\Block\goose\config\config.yaml;
// else $XDG_CONFIG_HOME/goose/config.yaml when that is absolute, or
// ~/.config/goose/config.yaml (macOS too: goose keeps XDG paths there).
func configFile(env provider.Env, goos string) string {
	get := func(name string) string {
		if env.Getenv == nil {
			return ""
		}
		v, _ := env.Getenv(name)
		return strings.TrimSpace(v)
	}
	if root := get("GOOSE_PATH_ROOT"); filepath.IsAbs(root) {
		return filepath.Join(root, "config", "config.yaml")
	}
	if goos == "windows" {
		appData := get("APPDATA")
		if appData == "" {
			appData = filepath.Join(env.Home, "AppData", "Roaming")
		}
		return filepath.Join(appData, "Block", "goose", "config", "config.yaml")
	}
	dir := filepath.Join(env.Home, ".config")
	if x := get("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		dir = x
	}
	return filepath.Join(dir, "goose", "config.yaml")
}
