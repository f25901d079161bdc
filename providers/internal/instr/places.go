package instr

import (
	"github.com/chronicle-dev/chronicle/engine/provider"
)

// Shared returns the place of a file the tool shares with the user: files
// in the tool's order of precedence.
func Shared(tool, kind, scope, project string, f provider.Format, source string, files ...string) provider.Place {
	return provider.Place{Tool: tool, Kind: kind, Scope: scope, Project: project, Files: files, Format: f, Source: source}
}

// Folder returns the place of a folder of one file per item.
func Folder(tool, kind, scope, project, dir, ext string, f provider.Format, source string) provider.Place {
	return provider.Place{Tool: tool, Kind: kind, Scope: scope, Project: project, Dir: dir, Ext: ext, Format: f, Source: source}
}

// PerProject returns the places of each project of env, in order.
func PerProject(env provider.Env, places func(project string) []provider.Place) []provider.Place {
	var out []provider.Place
	for _, p := range env.Projects {
		out = append(out, places(p)...)
	}
	return out
}
