package antigravity

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// Antigravity's page on plugins and skills
// (https://antigravity.google/docs/cli/plugins; docs/providers.md cites
// the copy read): a plugin is a folder of ~/.gemini/antigravity-cli/plugins
// holding plugin.json, and optionally mcp_config.json, skills/, agents/,
// rules/ and hooks.json; a skill is a folder or a single NAME.md file.
// Decision 0155.

// pluginNote says whose a plugin's servers and skills are.
func pluginNote(name string) string {
	return "Antigravity plugin " + name + ", which agy plugin installs and removes: read, never written"
}

// pluginDirs returns the folders of the plugins installed for the user,
// sorted: each folder of the plugins folder that holds plugin.json, the
// file that makes it a plugin.
func pluginDirs(env provider.Env) []string {
	root := filepath.Join(env.Home, ".gemini", "antigravity-cli", "plugins")
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil // no plugins folder: no plugins
	}
	var out []string
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if info, err := os.Stat(filepath.Join(dir, "plugin.json")); err == nil && info.Mode().IsRegular() {
			out = append(out, dir)
		}
	}
	sort.Strings(out)
	return out
}

// pluginLocations are the plugins' mcp_config.json files, read only: a
// second source of the servers agy runs, which chronicle lists and never
// writes (a link writes the user's own mcp_config.json).
func pluginLocations(env provider.Env) []provider.Location {
	var out []provider.Location
	for _, dir := range pluginDirs(env) {
		out = append(out, provider.Location{
			Tool: tool, Scope: provider.ScopeUser, File: filepath.Join(dir, "mcp_config.json"),
			KeyPath: []string{"mcpServers"}, ReadOnly: true, Note: pluginNote(filepath.Base(dir)),
		})
	}
	return out
}

// pluginSkills are the plugins' skills folders, read only.
func pluginSkills(env provider.Env) []provider.SkillDir {
	var out []provider.SkillDir
	for _, dir := range pluginDirs(env) {
		out = append(out, provider.SkillDir{
			Tool: tool, Scope: provider.ScopeUser, Dir: filepath.Join(dir, "skills"),
			Files: true, ReadOnly: true, Note: pluginNote(filepath.Base(dir)),
		})
	}
	return out
}
