package antigravity

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

// pluginHome is a home with the plugin of testdata/fixtures/antigravity/
// plugins (laid out as antigravity.google/docs/cli/plugins shows one), a
// global single-file skill, and a project's single-file skill.
func pluginHome(t *testing.T) provider.Env {
	env := tt.Home(t)
	from := filepath.Join(tt.Fixtures, "antigravity", "plugins")
	for sub, to := range map[string]string{"home": env.Home, "project": env.Projects[0]} {
		root := filepath.Join(from, sub)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			dst := filepath.Join(to, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, tt.ReadFile(t, path), 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return env
}

// A plugin's mcp_config.json is a user-level location chronicle reads and
// never writes, noted with the plugin's name; a folder without plugin.json
// is no plugin.
func TestPluginServers(t *testing.T) {
	env := pluginHome(t)
	notPlugin := filepath.Join(env.Home, ".gemini", "antigravity-cli", "plugins", "stray")
	if err := os.MkdirAll(notPlugin, 0o755); err != nil {
		t.Fatal(err)
	}
	tt.WriteFile(t, filepath.Join(notPlugin, "mcp_config.json"), `{"mcpServers": {"stray": {"command": "x"}}}`)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, "/plugins/my-plugin/mcp_config.json")
	if !loc.ReadOnly || loc.Note != pluginNote("my-plugin") || loc.Candidate {
		t.Fatalf("plugin location %+v", loc)
	}
	entries, err := pt.Read(p, loc)
	if err != nil || len(entries) != 1 || entries[0].Name != "firebase" || entries[0].Command != "npx" {
		t.Fatalf("plugin servers %+v, %v", entries, err)
	}
	var writable []string
	for _, l := range p.Locations(env) {
		if filepath.Base(filepath.Dir(l.File)) == "stray" {
			t.Fatalf("a folder without plugin.json is a plugin: %+v", l)
		}
		if !l.ReadOnly && l.Scope == provider.ScopeUser {
			writable = append(writable, l.File)
		}
	}
	if len(writable) != 1 || writable[0] != filepath.Join(env.Home, ".gemini", "config", "mcp_config.json") {
		t.Fatalf("user files a link may write: %v", writable)
	}
}

// Skills: the user's and every project's folder take single-file skills;
// a plugin's skills folder is read only, after the user's own (the one a
// link writes).
func TestPluginSkills(t *testing.T) {
	env := pluginHome(t)
	dirs := New().SkillDirs(env)
	want := []provider.SkillDir{
		{Tool: tool, Scope: provider.ScopeUser, Dir: filepath.Join(env.Home, ".gemini", "antigravity-cli", "skills"), Files: true},
		{Tool: tool, Scope: provider.ScopeUser, Dir: filepath.Join(env.Home, ".gemini", "antigravity-cli", "plugins", "my-plugin", "skills"),
			Files: true, ReadOnly: true, Note: pluginNote("my-plugin")},
		{Tool: tool, Scope: provider.ScopeProject, Project: env.Projects[0], Dir: filepath.Join(env.Projects[0], ".agents", "skills"),
			SharedWith: []string{"agents", "codex"}, Files: true},
	}
	if len(dirs) != len(want) {
		t.Fatalf("skill dirs %+v", dirs)
	}
	for i := range want {
		d, w := dirs[i], want[i]
		if d.Tool != w.Tool || d.Scope != w.Scope || d.Project != w.Project || d.Dir != w.Dir || d.Files != w.Files || d.ReadOnly != w.ReadOnly || d.Note != w.Note || len(d.SharedWith) != len(w.SharedWith) {
			t.Errorf("skill dir %d: got %+v, want %+v", i, d, w)
		}
	}
}
