package providers

import (
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/custom"
)

// programs names, per built-in tool, the programs whose presence on PATH
// makes the tool present when its config file does not exist yet (a tool
// just installed, never configured). The names are the vendors' own
// (docs/providers.md cites them). A tool missing here (claude-desktop: no
// Linux build and no command; agents: not a program; tool blocks) is
// present by its file alone.
var programs = map[string][]string{
	"claude":      {"claude"},
	"cursor":      {"cursor", "cursor-agent"},
	"gemini":      {"gemini"},
	"codex":       {"codex"},
	"vscode":      {"code"},
	"windsurf":    {"windsurf"},
	"zed":         {"zed", "zeditor"},
	"opencode":    {"opencode", "opencode2"}, // opencode2: OpenCode 2 installed beside OpenCode 1
	"antigravity": {"agy"},
	"devin":       {"devin"},
	"copilot":     {"copilot"},
	"kiro":        {"kiro-cli", "kiro"},
	"cline":       {"cline"},
	"goose":       {"goose"},
	"amp":         {"amp"},
	"junie":       {"junie"},
}

// Programs returns the programs on PATH that make the tool named present,
// or nil when only its config file does.
func Programs(tool string) []string { return programs[tool] }

// Present reports whether p's tool is present on this machine. The file
// test comes first: one of the user-level config files its provider lists
// (Locations, ScopeUser) exists. Otherwise one of the tool's programs
// (Programs) is an executable regular file in a folder of PATH, read
// through env.Getenv. A shared folder never counts (Gemini CLI and
// Antigravity both live under ~/.gemini): only the tool's own file or
// program does. PATH differs between a login shell and a timer, which is
// why the file, the same for both, is looked at first
// (docs/providers.md lists each tool's file and programs).
func Present(sys fsys.Reader, env provider.Env, p provider.Provider) bool {
	return hasFile(sys, env, p) || onPath(sys, env, Programs(p.Name()))
}

// hasFile reports whether one of p's user-level config files exists (a
// regular file, after following symlinks).
func hasFile(sys fsys.Reader, env provider.Env, p provider.Provider) bool {
	user := provider.Env{Home: env.Home, Getenv: env.Getenv}
	for _, loc := range p.Locations(user) {
		if loc.Scope != provider.ScopeUser {
			continue
		}
		if info, err := sys.Stat(loc.File); err == nil && info.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// onPath reports whether one of names is an executable regular file in a
// folder of env's PATH. Empty and relative PATH entries are skipped: they
// name the working directory, which says nothing about the machine.
func onPath(sys fsys.Reader, env provider.Env, names []string) bool {
	if len(names) == 0 || env.Getenv == nil {
		return false
	}
	path, _ := env.Getenv("PATH")
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		for _, name := range names {
			if executable(sys, env, filepath.Join(dir, name)) {
				return true
			}
		}
	}
	return false
}

// executable reports whether file (or, on Windows, file with one of the
// PATHEXT extensions) is a regular file that can be run: an execute bit
// set, or on Windows merely there.
func executable(sys fsys.Reader, env provider.Env, file string) bool {
	if runtime.GOOS != "windows" {
		info, err := sys.Stat(file)
		return err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o111 != 0
	}
	exts, _ := env.Getenv("PATHEXT")
	if exts == "" {
		exts = ".com;.exe;.bat;.cmd"
	}
	for _, ext := range strings.Split(exts, ";") {
		if info, err := sys.Stat(file + strings.ToLower(ext)); err == nil && info.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// PresentNames returns the sorted names of the tools of ps present on this
// machine (Present).
func PresentNames(sys fsys.Reader, env provider.Env, ps []provider.Provider) []string {
	var out []string
	for _, p := range ps {
		if Present(sys, env, p) {
			out = append(out, p.Name())
		}
	}
	sort.Strings(out)
	return out
}

// PresentTool reports whether the tool a tool block declares is present:
// its config file exists (a tool block names no program).
func PresentTool(sys fsys.Reader, env provider.Env, t *config.Tool) bool {
	return Present(sys, env, custom.New(t))
}
