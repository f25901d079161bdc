package claude

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

func TestRead(t *testing.T) {
	env := tt.Home(t)
	p := New()
	project := env.Projects[0]
	tests := []struct {
		scope, file string
		project     string
		want        []tt.Want
	}{
		{provider.ScopeUser, ".claude.json", "", []tt.Want{
			{Name: "chronova", Transport: "stdio", Command: "npx", Args: []string{"-y", "@chronova/mcp-server"},
				Env: map[string]string{"CHRONOVA_API_KEY": "sk-test-FAKE0123456789"}, Enabled: true},
			{Name: "github", Transport: "http", URL: "https://api.githubcopilot.com/mcp/",
				Headers: map[string]string{"Authorization": `Bearer ${secret("env:GITHUB_PAT")}`}, Enabled: true},
			{Name: "context7", Transport: "stdio", Command: "npx", Args: []string{"-y", "@upstash/context7-mcp@latest"}, Enabled: true},
		}},
		{provider.ScopeLocal, ".claude.json", project, []tt.Want{
			{Name: "postgres", Transport: "stdio", Command: "uvx", Args: []string{"postgres-mcp", "--access-mode=restricted"},
				Env: map[string]string{"DATABASE_URI": "postgresql://app:FAKEpassw0rd@localhost:5432/app_dev"}, Enabled: true},
			{Name: "sentry", Transport: "sse", URL: "https://mcp.sentry.dev/sse",
				Headers: map[string]string{"Authorization": "Bearer sntrys_FAKE0123456789abcdef"}, Enabled: true},
		}},
		{provider.ScopeLocal, ".claude.json", filepath.Join(env.Home, "scratch"), nil},
		{provider.ScopeProject, "api-server/.mcp.json", project, []tt.Want{
			// ${X:-default} is Claude's default syntax: literal to chronicle.
			{Name: "chronova-remote", Transport: "http", URL: "$${CHRONOVA_MCP_URL:-http://localhost:3001/mcp}",
				Headers: map[string]string{"Authorization": `Bearer ${secret("env:CHRONOVA_API_KEY")}`}, Enabled: true},
			{Name: "legacy-db", Transport: "stdio", Command: "node", Args: []string{"./tools/legacy-db-mcp.js", "--readonly"},
				Env: map[string]string{"LEGACY_DB_PASSWORD": "sk-test-FAKE0123456789"}, Enabled: false},
			{Name: "playwright", Transport: "stdio", Command: "npx", Args: []string{"-y", "@playwright/mcp@latest", "--headless"}, Enabled: true},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.scope+"/"+tc.project, func(t *testing.T) {
			loc := location(t, p, env, tc.scope, tc.project)
			entries, err := pt.Read(p, loc)
			if err != nil {
				t.Fatal(err)
			}
			tt.Check(t, entries, tc.want)
		})
	}
}

func TestLocalDisabled(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := location(t, p, env, provider.ScopeLocal, env.Projects[0])
	e := tt.NewEntry(true)
	e.Name = "context7" // disabledMcpServers of the project names it
	if err := pt.Put(p, loc, e); err != nil {
		t.Fatal(err)
	}
	entries, _ := pt.Read(p, loc)
	if entries[len(entries)-1].Name != "context7" || entries[len(entries)-1].Enabled {
		t.Fatalf("context7 should be read disabled: %+v", entries[len(entries)-1])
	}
}

func TestLocations(t *testing.T) {
	env := tt.Home(t)
	var got []string
	for _, loc := range New().Locations(env) {
		got = append(got, loc.Scope+" "+loc.Project+" "+loc.File)
	}
	h, p := env.Home, env.Projects[0]
	want := []string{
		"user  " + h + "/.claude.json",
		"local " + p + " " + h + "/.claude.json",
		"local " + h + "/scratch " + h + "/.claude.json",
		"local " + h + "/work/My Notes (personal) " + h + "/.claude.json",
		"project " + p + " " + p + "/.mcp.json",
		"project " + h + "/scratch " + h + "/scratch/.mcp.json",
		"project " + h + "/work/My Notes (personal) " + h + "/work/My Notes (personal)/.mcp.json",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("location %d: got %q, want %q", i, got[i], want[i])
		}
	}
	dirs := New().SkillDirs(env)
	if len(dirs) != 2 || dirs[0].Dir != h+"/.claude/skills" || dirs[1].Dir != p+"/.claude/skills" {
		t.Fatalf("skill dirs %+v", dirs)
	}
}

func TestWrite(t *testing.T) {
	for _, tc := range []struct{ scope, project string }{
		{provider.ScopeUser, ""}, {provider.ScopeLocal, "api"}, {provider.ScopeLocal, "scratch"},
		{provider.ScopeLocal, "new"}, {provider.ScopeProject, "api"},
	} {
		t.Run(tc.scope+"/"+tc.project, func(t *testing.T) {
			env := tt.Home(t)
			p := New()
			project := map[string]string{"api": env.Projects[0], "scratch": filepath.Join(env.Home, "scratch"),
				"new": filepath.Join(env.Home, "work", "new")}[tc.project]
			if tc.project == "new" {
				env.Projects = append(env.Projects, project)
			}
			loc := location(t, p, env, tc.scope, project)
			tt.RoundTrip(t, p, loc, tt.NewEntry(true))
			tt.Symlink(t, p, loc, tt.NewEntry(true))
		})
	}
}

func TestReplace(t *testing.T) {
	env := tt.Home(t)
	p := New()
	user := location(t, p, env, provider.ScopeUser, "")
	entries, _ := pt.Read(p, user)
	github := entries[1]
	github.Headers = map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("token "), tt.Env("GH"))}
	tt.Replace(t, p, user, github)
	// stdio -> http replaces the modelled fields and keeps nothing stale.
	project := location(t, p, env, provider.ScopeProject, env.Projects[0])
	entries, _ = pt.Read(p, project)
	playwright := entries[2]
	playwright.Args = append(playwright.Args, secret.Literal("--isolated"))
	tt.Replace(t, p, project, playwright)
	got := string(tt.ReadFile(t, project.File))
	if want := `"env": {}`; !strings.Contains(got, want) {
		t.Fatalf("the empty env of playwright was dropped:\n%s", got)
	}
}

func TestErrors(t *testing.T) {
	env := tt.Home(t)
	p := New()
	tt.Unparsable(t, p, location(t, p, env, provider.ScopeProject, env.Projects[0]))
	env = tt.Home(t)
	tt.Missing(t, p, location(t, p, env, provider.ScopeUser, ""), tt.NewEntry(true))
	env = tt.Home(t)
	tt.Missing(t, p, location(t, p, env, provider.ScopeProject, env.Projects[0]), tt.NewEntry(true))
	for name, e := range map[string]provider.Entry{
		"file secret": {
			Name:       "x",
			Definition: service.Definition{Transport: "stdio", Command: "a", Env: map[string]secret.Value{"K": secret.FromRef(secret.Ref{Kind: secret.KindFile, Name: "/k"})}},
			Enabled:    true,
		},
		"literal ref": {Name: "x", Definition: service.Definition{Transport: "stdio", Command: "a", Args: []secret.Value{secret.Literal("${HOME}")}}, Enabled: true},

		"cwd":       {Name: "x", Definition: service.Definition{Transport: "stdio", Command: "a", Cwd: "/tmp"}, Enabled: true},
		"extension": {Name: "x", Definition: service.Definition{Transport: "extension"}, Enabled: true},
	} {
		if _, err := p.Render(e); err == nil {
			t.Errorf("%s: Render succeeded", name)
		}
	}
	loc := location(t, p, env, provider.ScopeProject, env.Projects[0])
	if err := pt.Put(p, loc, provider.Entry{Name: "x", Definition: service.Definition{Transport: "stdio", Command: "a"}}); err == nil {
		t.Error("an edit setting a disabled server succeeded: Claude keeps that switch outside the entry")
	}
}

func FuzzRead(f *testing.F) {
	for _, file := range []string{"claude-code/home/.claude.json", "claude-code/project/.mcp.json"} {
		f.Add(tt.ReadFile(f, filepath.Join(tt.Fixtures, file)))
	}
	p := New()
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, loc := range []provider.Location{
			{Tool: "claude", Scope: provider.ScopeUser, File: ".claude.json", KeyPath: []string{"mcpServers"}},
			{Tool: "claude", Scope: provider.ScopeLocal, Project: "/home/dev/work/api-server", File: ".claude.json",
				KeyPath: []string{"projects", "/home/dev/work/api-server", "mcpServers"}},
		} {
			tt.FuzzRead(t, p, loc, src)
		}
	})
}

func location(t *testing.T, p provider.Provider, env provider.Env, scope, project string) provider.Location {
	t.Helper()
	for _, loc := range p.Locations(env) {
		if loc.Scope == scope && loc.Project == project {
			return loc
		}
	}
	t.Fatalf("no %s location for %q", scope, project)
	return provider.Location{}
}

// TestOneEditAcrossScopes sets entries at the user level and in two
// projects' local scope of ~/.claude.json (one project the file knows, one
// it does not) in one Edit, reads each back, and removes them all in
// another: the file comes back byte for byte.
func TestOneEditAcrossScopes(t *testing.T) {
	env := tt.Home(t)
	newProject := filepath.Join(env.Home, "work", "new")
	env.Projects = append(env.Projects, newProject)
	p := New()
	user := location(t, p, env, provider.ScopeUser, "")
	api := location(t, p, env, provider.ScopeLocal, env.Projects[0])
	fresh := location(t, p, env, provider.ScopeLocal, newProject)
	before := tt.ReadFile(t, user.File)
	e := tt.NewEntry(true)
	if err := pt.Apply(p, user.File, pt.Set(user, e), pt.Set(api, e), pt.Set(fresh, e)); err != nil {
		t.Fatal(err)
	}
	for _, loc := range []provider.Location{user, api, fresh} {
		entries, err := pt.Read(p, loc)
		if err != nil {
			t.Fatal(err)
		}
		if got := entries[len(entries)-1]; got.Name != e.Name || got.Command != "npx" {
			t.Errorf("%s %s: last entry %+v, want %s", loc.Scope, loc.Project, got, e.Name)
		}
	}
	if err := pt.Apply(p, user.File, pt.Unset(user, e.Name), pt.Unset(api, e.Name), pt.Unset(fresh, e.Name)); err != nil {
		t.Fatal(err)
	}
	if after := tt.ReadFile(t, user.File); string(after) != string(before) {
		t.Fatalf("setting and removing across scopes changed the file:\n%s", after)
	}
}

// TestEachFileIsReadOnce reads every location of a home through one View
// over a recording filesystem: ~/.claude.json, which holds the user and all
// local scopes and the approvals of every project's .mcp.json, is read
// through it once.
func TestEachFileIsReadOnce(t *testing.T) {
	env := tt.Home(t)
	p := New()
	rec := &fsys.Recorder{System: fsys.OS{}}
	view := toolfile.NewView(rec)
	for _, loc := range p.Locations(env) {
		if _, err := view.Entries(p, loc); err != nil && !errors.Is(err, provider.ErrNotConfigured) {
			t.Fatal(err)
		}
	}
	reads := map[string]int{}
	for _, op := range rec.Ops() {
		if op.Name == "ReadFile" {
			reads[op.Path]++
		}
	}
	if n := reads[filepath.Join(env.Home, ".claude.json")]; n != 1 {
		t.Errorf("~/.claude.json read %d times, want once", n)
	}
	for path, n := range reads {
		if n > 1 {
			t.Errorf("%s read %d times", path, n)
		}
	}
}

// TestEditRefusesADuplicatedName: a name held twice is an error of the edit
// (which plan finds by making the edit in memory), naming the file, the
// place and the name; reading takes the last, as Claude Code does.
func TestEditRefusesADuplicatedName(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := location(t, p, env, provider.ScopeProject, env.Projects[0])
	tt.WriteFile(t, loc.File, `{"mcpServers": {"x": {"command": "a"}, "x": {"command": "b"}}}`)
	entries, err := pt.Read(p, loc)
	if err != nil || len(entries) != 1 || entries[0].Command != "b" {
		t.Fatalf("read %+v, %v; want the last x", entries, err)
	}
	e := tt.NewEntry(false)
	e.Name = "x"
	for _, ed := range []provider.Edit{pt.Set(loc, e), pt.Unset(loc, "x")} {
		_, err := pt.Edit(p, loc.File, ed)
		if err == nil || !strings.Contains(err.Error(), loc.File+`: ["mcpServers"] holds "x" more than once`) {
			t.Errorf("got %v, want the file, the place and the name", err)
		}
	}
}

// A project's .mcp.json is Claude Code's, and scan says Copilot CLI reads
// it too (Location.Note).
func TestMCPJSONSharedWithCopilot(t *testing.T) {
	env := tt.Home(t)
	loc := tt.Location(t, New(), env, provider.ScopeProject, "api-server/.mcp.json")
	if loc.Note != sharedWithCopilot || loc.ReadOnly {
		t.Fatalf("location %+v", loc)
	}
}
