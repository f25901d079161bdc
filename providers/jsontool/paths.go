package jsontool

import (
	"os"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// ConfigHome returns $XDG_CONFIG_HOME when set to an absolute path, else
// ~/.config.
func ConfigHome(env provider.Env) string {
	if env.Getenv != nil {
		if dir, ok := env.Getenv("XDG_CONFIG_HOME"); ok && filepath.IsAbs(dir) {
			return dir
		}
	}
	return filepath.Join(env.Home, ".config")
}

// UserFile is the location of a tool's user-level file.
func UserFile(tool, file string, keyPath ...string) provider.Location {
	return provider.Location{Tool: tool, Scope: provider.ScopeUser, File: file, KeyPath: keyPath}
}

// ProjectFiles are the locations of a project-level file (rel, relative to
// each project folder) in every project of env.
func ProjectFiles(env provider.Env, tool, rel string, keyPath ...string) []provider.Location {
	var out []provider.Location
	for _, p := range env.Projects {
		out = append(out, provider.Location{Tool: tool, Scope: provider.ScopeProject, Project: p,
			File: filepath.Join(p, rel), KeyPath: keyPath})
	}
	return out
}

// UserSkills is a tool's user-level skills folder.
func UserSkills(tool, dir string) provider.SkillDir {
	return provider.SkillDir{Tool: tool, Scope: provider.ScopeUser, Dir: dir}
}

// ProjectSkills are a tool's skills folders (rel inside each project).
func ProjectSkills(env provider.Env, tool, rel string) []provider.SkillDir {
	var out []provider.SkillDir
	for _, p := range env.Projects {
		out = append(out, provider.SkillDir{Tool: tool, Scope: provider.ScopeProject, Project: p, Dir: filepath.Join(p, rel)})
	}
	return out
}

// FirstExisting returns the first of paths that exists, else the first.
func FirstExisting(paths ...string) string {
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			return p
		}
	}
	return paths[0]
}
