package state

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

func envRef(name string) secret.Value {
	return secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: name})
}

// sample returns a state with one of everything.
func sample(t *testing.T) *State {
	t.Helper()
	on := false
	s := New()
	s.ChronicleVersion = "0.1.0"
	s.ConfigDir = "/home/u/dotfiles"
	s.Services["github"] = service.Service{
		Name:       "github",
		Definition: service.Definition{Transport: "stdio", Command: "npx", Args: []secret.Value{secret.Literal("-y"), secret.Literal("server-github")}, Env: map[string]secret.Value{"GITHUB_TOKEN": envRef("GITHUB_TOKEN")}},
		Timeout:    60 * time.Second,
		Enabled:    true,
		Origin:     "claude:user",
	}
	s.Services["linear"] = service.Service{
		Name:       "linear",
		Definition: service.Definition{Transport: "http", URL: secret.Literal("https://mcp.linear.app/mcp"), Headers: map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("Bearer "), envRef("LINEAR"))}},
		Timeout:    1500 * time.Millisecond,
		Enabled:    true,
	}
	s.Policies["github"] = Policy{Enabled: &on, DisabledTools: []string{"delete_repo"}}
	s.Hub = &Hub{Listen: "127.0.0.1:7311", Token: envRef("CHRONICLE_HUB_TOKEN"), Hostnames: []string{"box"}}
	s.Chronova = &Chronova{APIKey: envRef("CHRONOVA_API_KEY"), APIURL: "https://chronova.dev/api/v1"}
	s.Skills["pdf"] = Skill{Hash: "sha256:ab", OriginRepo: "https://github.com/anthropics/skills", OriginSHA: "0123", Path: "skills/pdf"}
	s.Links = []Link{{Address: `link.everywhere["claude"].skill.pdf`, Tool: "claude", Path: "/h/.claude/skills/pdf", Target: "/h/.chronicle/skills/pdf", Mode: ModeSymlink}}
	s.Entries = []Entry{{Address: `link.cursor-direct["cursor"].service.linear`, Tool: "cursor", Scope: "user", File: "/h/.cursor/mcp.json", KeyPath: []string{"mcpServers", "linear"}, Name: "linear", Hash: "sha256:cd", Rendered: "sha256:ce"}}
	s.Blocks = []Block{{File: "/p/AGENTS.md", ID: "rule.go-style", Hash: "sha256:aa", WantedBy: []string{`link.all["codex"].rule.go-style`, `link.all["opencode"].rule.go-style`}, Created: true}}
	s.Files = []File{{Address: `link.all["claude"].command.review`, Tool: "claude", Kind: "command", Path: "/h/.claude/commands/review.md", Hash: "sha256:bb", Rendered: "sha256:bc"}}
	s.Intents = []Intent{{Address: `link.everywhere["claude"].hub`, Action: "create", File: "/h/.claude.json", KeyPath: []string{"mcpServers", "chronicle"}, Hash: "sha256:ef", Time: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}}
	s.Sources["/h/.cursor/mcp.json"] = "sha256:01"
	return s
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	want := sample(t)
	if err := want.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.IsNew() || want.IsNew() {
		t.Fatal("a saved state still reports itself as new")
	}
	want.wrote, want.wroteData = nil, nil // what this run wrote, which a loaded state has not
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("round trip changed the state:\n got %+v\nwant %+v", got, want)
	}
	raw, _ := os.ReadFile(path)
	if !strings.Contains(string(raw), `"timeout": "60s"`) || !strings.Contains(string(raw), `"timeout": "1.5s"`) {
		t.Fatalf("timeouts are not written as duration strings:\n%s", raw)
	}
}

func TestSerialLineageBackupAndModes(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".chronicle", "state.json")
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !s.IsNew() || s.Serial != 0 || len(s.Lineage) != 36 {
		t.Fatalf("missing file: new=%v serial=%d lineage=%q, want a new state at serial 0 with a UUID lineage", s.IsNew(), s.Serial, s.Lineage)
	}
	lineage := s.Lineage
	for i := 1; i <= 3; i++ {
		s.ConfigDir = strings.Repeat("x", i)
		if err := s.Save(path); err != nil {
			t.Fatal(err)
		}
		if s.Serial != uint64(i) {
			t.Fatalf("after save %d the serial is %d", i, s.Serial)
		}
	}
	os.Chmod(path, 0o644)
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	again, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	backup, err := Load(path + BackupSuffix)
	if err != nil {
		t.Fatal(err)
	}
	if again.Serial != 4 || again.Lineage != lineage || backup.Serial != 3 || backup.Lineage != lineage {
		t.Fatalf("serial %d lineage %s, backup serial %d lineage %s; want 4 and 3 with lineage %s",
			again.Serial, again.Lineage, backup.Serial, backup.Lineage, lineage)
	}
	// A later run's first save reads the file it replaces and keeps it.
	next, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := next.Save(path); err != nil {
		t.Fatal(err)
	}
	if backup, _ := Load(path + BackupSuffix); backup.Serial != 4 {
		t.Fatalf("backup serial %d after the next run's save, want 4", backup.Serial)
	}
	// A file another run wrote meanwhile is not taken for this run's own.
	other, _ := Load(path)
	if err := other.Save(path); err != nil {
		t.Fatal(err)
	}
	if err := next.Save(path); err == nil || !strings.Contains(err.Error(), "saved by another run") {
		t.Fatalf("saving over another run's state: %v, want the serial refusal", err)
	}
	for _, p := range []string{path, path + BackupSuffix} {
		if info, _ := os.Stat(p); info.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, info.Mode().Perm())
		}
	}
	if info, _ := os.Stat(filepath.Dir(path)); info.Mode().Perm() != 0o700 {
		t.Errorf("the state folder has mode %v, want 0700", info.Mode().Perm())
	}
}

func TestSaveRefusesAnotherHistory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	if err := New().Save(path); err != nil {
		t.Fatal(err)
	}
	if err := New().Save(path); err == nil || !strings.Contains(err.Error(), "lineage") {
		t.Fatalf("saving a different lineage over the file: %v, want a lineage error", err)
	}
	a, _ := Load(path)
	b, _ := Load(path)
	if err := a.Save(path); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(path); err == nil || !strings.Contains(err.Error(), "serial") {
		t.Fatalf("saving a stale copy: %v, want a serial error", err)
	}
	if b.Serial != 1 {
		t.Fatalf("a refused save left the serial at %d, want 1", b.Serial)
	}
}

func TestLoadRefusesUnknownVersions(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"newer.json":     `{"version": 5, "serial": 1, "lineage": "x"}`,
		"noversion.json": `{"serial": 1, "lineage": "x"}`,
		"truncated.json": `{"version": 1, "serial": 1, "lin`,
	} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(content), 0o600)
		_, err := Load(path)
		if err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want an error naming the file", name, err)
		}
		if name == "newer.json" && (err == nil || !strings.Contains(err.Error(), "version 5")) {
			t.Errorf("%s: %v, want the version named", name, err)
		}
	}
}

func TestLeftoverTempFileIsIgnored(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	s := sample(t)
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	// What a crash during the next save's write leaves: a partial temp file.
	os.WriteFile(filepath.Join(dir, ".state.json.chronicle-123456"), []byte(`{"version": 1, "ser`), 0o600)
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Serial != 1 || len(got.Services) != 2 {
		t.Fatalf("loaded serial %d with %d services, want the last saved state", got.Serial, len(got.Services))
	}
	if err := got.Save(path); err != nil {
		t.Fatalf("saving beside a leftover temp file: %v", err)
	}
}

func TestNoSecretInFile(t *testing.T) {
	t.Setenv("GITHUB_TOKEN", "ghp_supersecretvalue")
	path := filepath.Join(t.TempDir(), "state.json")
	if err := sample(t).Save(path); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if strings.Contains(string(raw), "ghp_supersecretvalue") {
		t.Fatal("the state file holds a secret's content")
	}
	if !strings.Contains(string(raw), `"GITHUB_TOKEN": "${secret(\"env:GITHUB_TOKEN\")}"`) {
		t.Fatalf("the state file does not hold the reference:\n%s", raw)
	}
	s, _ := Load(path)
	out, err := s.Describe("service.github")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"GITHUB_TOKEN" = secret("env:GITHUB_TOKEN")`) || strings.Contains(out, "ghp_") {
		t.Fatalf("describe does not show the reference:\n%s", out)
	}
}

// A version 1 state could hold plain-text secrets: loading it scrubs them,
// and the next save leaves none in the file or its backup.
func TestVersion1StateIsScrubbed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	v1 := `{"version": 1, "serial": 3, "lineage": "l-1",
	  "services": {"gh": {"name": "gh", "transport": "stdio", "command": "npx",
	    "args": ["--token", "ghp_canaryCANARY0123456789abcd"],
	    "env": {"GITHUB_TOKEN": "plain-canary-value", "LOG": "debug", "REF": "${secret(\"env:X\")}"},
	    "enabled": true},
	   "db": {"name": "db", "transport": "http", "url": "https://u:pw-canary@db.example.com/mcp", "enabled": true}},
	  "hub": {"token": "hub-canary-token"},
	  "policies": {}, "skills": {}, "links": [], "entries": [], "journal": [], "sources": {}}`
	if err := os.WriteFile(path, []byte(v1), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if v := st.Services["gh"].Env["LOG"]; v.HCL() != "debug" {
		t.Fatalf("a harmless value was scrubbed: %s", v.HCL())
	}
	if v := st.Services["gh"].Env["REF"]; !v.HasRefs() {
		t.Fatalf("a reference was lost: %s", v.HCL())
	}
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, path + BackupSuffix} {
		b, _ := os.ReadFile(f)
		for _, canary := range []string{"ghp_canaryCANARY", "plain-canary-value", "pw-canary", "hub-canary-token"} {
			if strings.Contains(string(b), canary) {
				t.Errorf("%s still holds %s", filepath.Base(f), canary)
			}
		}
		if !strings.Contains(string(b), `"version": 4`) {
			t.Errorf("%s is not version 4", filepath.Base(f))
		}
	}
}

// The index answers as the lists' own lookups do.
func TestIndexAgreesWithTheLists(t *testing.T) {
	s := sample(t)
	s.Entries = append(s.Entries, Entry{Address: "second", File: "/h/.cursor/mcp.json", KeyPath: []string{"mcpServers", "linear"}, Name: "linear", Hash: "sha256:other"})
	x := s.Index()
	for _, e := range []Entry{s.Entries[0], {File: "/nowhere", Name: "x"}} {
		if got, want := x.EntryAt(e.File, e.KeyPath, e.Name), s.EntryAt(e.File, e.KeyPath, e.Name); got != want {
			t.Fatalf("EntryAt(%s): %p, the list's %p", e.Name, got, want)
		}
	}
	if x.Entry(s.Entries[0].Address) != &s.Entries[0] || x.Entry("second") != &s.Entries[1] || x.Entry("none") != nil {
		t.Fatal("Entry by address")
	}
	if x.Link(s.Links[0].Address) != &s.Links[0] || x.LinkAt(s.Links[0].Path) != s.LinkAt(s.Links[0].Path) || x.LinkAt("/none") != nil {
		t.Fatal("Link by address or path")
	}
}
