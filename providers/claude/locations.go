package claude

import (
	"path/filepath"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
)

const tool = "claude"

// configDir is ~/.claude, or $CLAUDE_CONFIG_DIR.
func configDir(env provider.Env) string {
	if env.Getenv != nil {
		if dir, ok := env.Getenv("CLAUDE_CONFIG_DIR"); ok && filepath.IsAbs(dir) {
			return dir
		}
	}
	return filepath.Join(env.Home, ".claude")
}

// userFile is ~/.claude.json, or .claude.json in $CLAUDE_CONFIG_DIR.
func userFile(env provider.Env) string {
	dir := configDir(env)
	if dir != filepath.Join(env.Home, ".claude") {
		return filepath.Join(dir, ".claude.json")
	}
	return filepath.Join(env.Home, ".claude.json")
}

// locations lists the user file, the local scope of every project Claude
// knows or env names, and each such project's .mcp.json.
func (c *claude) locations(env provider.Env) []provider.Location {
	file := userFile(env)
	c.userFile.Set(file)
	out := []provider.Location{jsontool.UserFile(tool, file, "mcpServers")}
	projects := projects(env, file)
	for _, p := range projects {
		out = append(out, provider.Location{Tool: tool, Scope: provider.ScopeLocal, Project: p, File: file,
			KeyPath: []string{"projects", p, "mcpServers"}})
	}
	for _, loc := range jsontool.ProjectFiles(provider.Env{Projects: projects}, tool, ".mcp.json", "mcpServers") {
		loc.Note = sharedWithCopilot
		out = append(out, loc)
	}
	return out
}

// sharedWithCopilot is what scan says of a project's .mcp.json: Copilot
// CLI reads it too (github/docs add-mcp-servers.md), but it stays Claude
// Code's here (decision 0090) — chronicle writes Copilot's project servers
// to .github/mcp.json, so one server is never written twice for the two.
const sharedWithCopilot = "Copilot CLI reads this file too; chronicle writes Copilot CLI's project servers to .github/mcp.json"

// projects returns env.Projects followed by the other project keys of the
// user file, sorted. The file is read here, outside the engine's View,
// because Locations must know the projects before anything is read through
// it; the View's read of the same bytes gets this parse back (userDoc).
func projects(env provider.Env, file string) []string {
	out := slices.Clone(env.Projects)
	seen := make(map[string]bool, len(out))
	for _, p := range out {
		seen[p] = true
	}
	for _, p := range KnownProjects(file) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func skills(env provider.Env) []provider.SkillDir {
	out := []provider.SkillDir{jsontool.UserSkills(tool, filepath.Join(configDir(env), "skills"))}
	return append(out, jsontool.ProjectSkills(env, tool, filepath.Join(".claude", "skills"))...)
}
