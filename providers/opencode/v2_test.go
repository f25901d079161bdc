package opencode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

// v2Home is a home whose user file and project are in OpenCode 2's layout
// (testdata/fixtures/opencode/v2, after opencode.ai/v2/docs/mcp-servers).
func v2Home(t *testing.T) provider.Env {
	env := tt.Home(t)
	v2 := filepath.Join(tt.Fixtures, "opencode", "v2")
	for from, to := range map[string]string{
		"home/.config/opencode/opencode.jsonc": filepath.Join(env.Home, ".config", "opencode", "opencode.jsonc"),
		"project/.opencode/opencode.json":      filepath.Join(env.Projects[0], ".opencode", "opencode.json"),
	} {
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		tt.WriteFile(t, to, string(tt.ReadFile(t, filepath.Join(v2, from))))
	}
	os.Remove(filepath.Join(env.Home, ".config", "opencode", "opencode.json"))
	return env
}

// OpenCode 1 never has "servers" or "timeout" as server names under mcp:
// those are OpenCode 2's settings, never read as entries and never
// written as one.
func TestV1NeverReadsV2Settings(t *testing.T) {
	env := tt.Home(t)
	p := New()
	user := tt.Location(t, p, env, provider.ScopeUser, "/.config/opencode/opencode.json")
	tt.WriteFile(t, user.File, `{"mcp": {"timeout": {"startup": 30000}, "a": {"type": "local", "command": ["a"]}}}`)
	entries, err := pt.Read(p, user)
	if err != nil || len(entries) != 1 || entries[0].Name != "a" {
		t.Fatalf("entries %+v, %v", entries, err)
	}
	for _, name := range []string{"servers", "timeout"} {
		e := tt.NewEntry(false)
		e.Name = name
		if err := pt.Put(p, user, e); err == nil || !strings.Contains(err.Error(), "not a server") {
			t.Errorf("an entry named %q was written: %v", name, err)
		}
		if err := pt.Remove(p, user, name); err == nil {
			t.Errorf("the setting %q was removed as an entry", name)
		}
	}
}

// A file with mcp.servers, or a project's .opencode/opencode.json, is in
// OpenCode 2's layout: its location is mcp.servers (the one a link
// writes, first), with a note, then its OpenCode 1 entries, read only.
func TestV2Locations(t *testing.T) {
	env := v2Home(t)
	var got []string
	for _, loc := range New().Locations(env) {
		got = append(got, strings.TrimPrefix(loc.File, env.Home)+" "+strings.Join(loc.KeyPath, ".")+" "+map[bool]string{true: "ro"}[loc.ReadOnly]+" "+loc.Note)
	}
	want := []string{
		"/.config/opencode/opencode.jsonc mcp.servers  " + noteV2,
		"/.config/opencode/opencode.jsonc mcp ro " + noteV1in,
		"/work/api-server/.opencode/opencode.json mcp.servers  " + noteV2,
		"/work/api-server/.opencode/opencode.json mcp ro " + noteV1in,
		"/work/api-server/opencode.jsonc mcp  ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestV2Read(t *testing.T) {
	env := v2Home(t)
	p := New()
	user := tt.Location(t, p, env, provider.ScopeUser, "/.config/opencode/opencode.jsonc")
	entries, err := pt.Read(p, user)
	if err != nil {
		t.Fatal(err)
	}
	tt.Check(t, entries, []tt.Want{
		{Name: "everything", Transport: "stdio", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"},
			Cwd: ".", Env: map[string]string{"LOG_LEVEL": "info"}, Enabled: true},
		{Name: "context7", Transport: "http", URL: "https://mcp.context7.com/mcp",
			Headers: map[string]string{"CONTEXT7_API_KEY": `${secret("env:CONTEXT7_API_KEY")}`}, Enabled: true},
		{Name: "my-server", Transport: "stdio", Command: "npx", Args: []string{"-y", "example-mcp-server"}},
	})
	if entries[0].Timeout != time.Minute {
		t.Errorf("timeout.request read as %v", entries[0].Timeout)
	}
	if entries[0].Extra != nil {
		t.Errorf("modelled keys read as extra: %v", entries[0].Extra)
	}
	var v1 provider.Location
	for _, loc := range p.Locations(env) {
		if loc.File == user.File && loc.ReadOnly {
			v1 = loc
		}
	}
	old, err := pt.Read(p, v1)
	if err != nil || len(old) != 1 || old[0].Name != "legacy-v1" {
		t.Fatalf("OpenCode 1 entries of an OpenCode 2 file: %+v, %v", old, err)
	}
}

// Writing in OpenCode 2's layout: "disabled" for a server switched off
// (never "enabled"), the timeout as timeout.request with the user's
// startup kept, and the rest of the file (comments, mcp.timeout, the
// OpenCode 1 entry) as it was.
func TestV2Write(t *testing.T) {
	env := v2Home(t)
	p := New()
	user := tt.Location(t, p, env, provider.ScopeUser, "/.config/opencode/opencode.jsonc")
	entries, _ := pt.Read(p, user)
	e := entries[0]
	e.Enabled = false
	e.Timeout = 90 * time.Second
	tt.Replace(t, p, user, e)
	b := string(tt.ReadFile(t, user.File))
	for _, want := range []string{`"disabled": true`, `"startup": 20000`, `"request": 90000`, "// a V1 entry", `"timeout": { "startup": 30000 }`, `"legacy-v1"`} {
		if !strings.Contains(b, want) {
			t.Errorf("no %s in\n%s", want, b)
		}
	}
	if strings.Contains(b, `"enabled": false`) {
		t.Errorf("OpenCode 2 has no enabled field:\n%s", b)
	}
	fresh := tt.NewEntry(false)
	fresh.Name = "fresh"
	fresh.Headers = map[string]secret.Value{}
	project := tt.Location(t, p, env, provider.ScopeProject, "api-server/.opencode/opencode.json")
	if err := pt.Put(p, project, fresh); err != nil {
		t.Fatal(err)
	}
	if got, _ := pt.Read(p, project); len(got) != 2 || got[1].Name != "fresh" {
		t.Fatalf("project entries %+v", got)
	}
}

// A project whose .opencode folder holds no config file yet keeps
// OpenCode 1's plain opencode.json; an empty .opencode/opencode.json
// is OpenCode 2's, by its place.
func TestV2ByPlace(t *testing.T) {
	env := tt.Home(t)
	dir := filepath.Join(env.Projects[0], ".opencode")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tt.WriteFile(t, filepath.Join(dir, "opencode.json"), "{}\n")
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeProject, "api-server/.opencode/opencode.json")
	if strings.Join(loc.KeyPath, ".") != "mcp.servers" || loc.ReadOnly {
		t.Fatalf("location %+v", loc)
	}
	e := tt.NewEntry(false)
	if err := pt.Put(p, loc, e); err != nil {
		t.Fatal(err)
	}
	if b := string(tt.ReadFile(t, loc.File)); !strings.Contains(b, `"servers"`) {
		t.Fatalf("not written under mcp.servers:\n%s", b)
	}
}

// One transaction may remove an entry recorded in OpenCode 1's layout and
// write it in OpenCode 2's, in the same file.
func TestBothLayoutsInOneEdit(t *testing.T) {
	env := v2Home(t)
	p := New()
	var v1, v2 provider.Location
	for _, loc := range p.Locations(env) {
		if loc.Scope == provider.ScopeUser && loc.ReadOnly {
			v1 = loc
		} else if loc.Scope == provider.ScopeUser {
			v2 = loc
		}
	}
	old, _ := pt.Read(p, v1)
	if err := pt.Apply(p, v1.File, pt.Unset(v1, "legacy-v1"), pt.Set(v2, old[0])); err != nil {
		t.Fatal(err)
	}
	if got, _ := pt.Read(p, v1); len(got) != 0 {
		t.Errorf("OpenCode 1 entries left: %+v", got)
	}
	if got, _ := pt.Read(p, v2); len(got) != 4 || got[3].Name != "legacy-v1" {
		t.Errorf("OpenCode 2 entries: %+v", got)
	}
}
