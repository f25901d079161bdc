package jsontooltest

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// Fixtures is testdata/fixtures seen from a package under providers/.
const Fixtures = "../../testdata/fixtures"

// layout maps fixture files to their place in a home, as make-home.sh
// lays them out (P is the project ~/work/api-server).
var layout = [][2]string{
	{"claude-code/home/.claude.json", ".claude.json"},
	{"claude-code/project/.mcp.json", "P/.mcp.json"},
	{"claude-code/project/.claude/settings.local.json", "P/.claude/settings.local.json"},
	{"claude-desktop/claude_desktop_config.json", ".config/Claude/claude_desktop_config.json"},
	{"cursor/home/.cursor/mcp.json", ".cursor/mcp.json"},
	{"cursor/project/.cursor/mcp.json", "P/.cursor/mcp.json"},
	{"gemini/home/.gemini/settings.json", ".gemini/settings.json"},
	{"gemini/home/.gemini/mcp-server-enablement.json", ".gemini/mcp-server-enablement.json"},
	{"gemini/project/.gemini/settings.json", "P/.gemini/settings.json"},
	{"vscode/user/mcp.json", ".config/Code/User/mcp.json"},
	{"vscode/project/.vscode/mcp.json", "P/.vscode/mcp.json"},
	{"windsurf/home/.codeium/windsurf/mcp_config.json", ".codeium/windsurf/mcp_config.json"},
	{"zed/home/.config/zed/settings.json", ".config/zed/settings.json"},
	{"zed/project/.zed/settings.json", "P/.zed/settings.json"},
	{"opencode/home/.config/opencode/opencode.json", ".config/opencode/opencode.json"},
	{"opencode/project/opencode.jsonc", "P/opencode.jsonc"},
}

// Home lays the JSON tools' fixtures out as a home in a temporary folder,
// as make-home.sh and make-home-all.sh do ("/home/dev" becomes the home):
// the files above and those each tool's layout.txt lists. It returns an
// Env for the home with its one project, ~/work/api-server, and no
// environment variables.
func Home(t testing.TB) provider.Env {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(home, "work", "api-server")
	for _, l := range slices.Concat(layout, Layouts(t)) {
		src := ReadFile(t, filepath.Join(Fixtures, l[0]))
		dst := filepath.Join(home, l[1])
		if rel, ok := strings.CutPrefix(l[1], "P/"); ok {
			dst = filepath.Join(project, rel)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, bytes.ReplaceAll(src, []byte("/home/dev"), []byte(home)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return provider.Env{
		Home:     home,
		Projects: []string{project},
		Getenv:   func(string) (string, bool) { return "", false },
	}
}

// Location returns p's location at scope whose file ends with suffix.
func Location(t testing.TB, p provider.Provider, env provider.Env, scope, suffix string) provider.Location {
	t.Helper()
	for _, loc := range p.Locations(env) {
		if loc.Scope == scope && filepath.Base(loc.File) == filepath.Base(suffix) && len(loc.File) >= len(suffix) &&
			loc.File[len(loc.File)-len(suffix):] == suffix {
			return loc
		}
	}
	t.Fatalf("%s has no %s location ending in %s: %+v", p.Name(), scope, suffix, p.Locations(env))
	return provider.Location{}
}

// ReadFile returns a file's bytes or fails the test.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// WriteFile replaces a file's content or fails the test.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Layouts returns the fixture files of the tools whose folder under
// testdata/fixtures has a layout.txt (the tools make-home-all.sh adds to
// make-home.sh's home), as pairs of a fixture path and a place in a home.
// Each line of layout.txt is "FIXTURE PLACE": FIXTURE relative to the
// tool's folder, PLACE relative to the home, P/ standing for the project;
// blank lines and lines starting with # are skipped.
func Layouts(t testing.TB) [][2]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Fixtures, "*", "layout.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	for _, f := range files {
		dir := filepath.Base(filepath.Dir(f))
		for i, line := range strings.Split(string(ReadFile(t, f)), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			fields := strings.Fields(line)
			if len(fields) != 2 {
				t.Fatalf("%s:%d: want FIXTURE PLACE, got %q", f, i+1, line)
			}
			out = append(out, [2]string{dir + "/" + fields[0], fields[1]})
		}
	}
	return out
}
