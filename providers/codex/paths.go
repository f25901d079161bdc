package codex

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// Locations lists the user file $CODEX_HOME/config.toml and each project's
// .codex/config.toml.
func (Provider) Locations(env provider.Env) []provider.Location {
	locs := []provider.Location{{
		Tool:    Name,
		Scope:   provider.ScopeUser,
		File:    filepath.Join(codexHome(env), "config.toml"),
		KeyPath: []string{serversKey},
	}}
	for _, p := range env.Projects {
		locs = append(locs, provider.Location{
			Tool:    Name,
			Scope:   provider.ScopeProject,
			Project: p,
			File:    filepath.Join(p, ".codex", "config.toml"),
			KeyPath: []string{serversKey},
		})
	}
	return locs
}

// SkillDirs lists ~/.agents/skills (shared with agents), the legacy
// $CODEX_HOME/skills when it exists, and each project's .agents/skills.
func (Provider) SkillDirs(env provider.Env) []provider.SkillDir {
	shared := []string{"agents"}
	dirs := []provider.SkillDir{{
		Tool: Name, Scope: provider.ScopeUser,
		Dir: filepath.Join(env.Home, ".agents", "skills"), SharedWith: shared,
	}}
	if legacy := filepath.Join(codexHome(env), "skills"); isDir(legacy) {
		dirs = append(dirs, provider.SkillDir{Tool: Name, Scope: provider.ScopeUser, Dir: legacy})
	}
	for _, p := range env.Projects {
		dirs = append(dirs, provider.SkillDir{
			Tool: Name, Scope: provider.ScopeProject, Project: p,
			Dir: filepath.Join(p, ".agents", "skills"), SharedWith: shared,
		})
	}
	return dirs
}

// codexHome is $CODEX_HOME, else ~/.codex.
func codexHome(env provider.Env) string {
	if env.Getenv != nil {
		if dir, ok := env.Getenv("CODEX_HOME"); ok && dir != "" {
			if dir == "~" || strings.HasPrefix(dir, "~/") {
				dir = filepath.Join(env.Home, dir[1:])
			}
			if abs, err := filepath.Abs(dir); err == nil {
				return abs
			}
			return dir
		}
	}
	return filepath.Join(env.Home, ".codex")
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
