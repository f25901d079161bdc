package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
)

// gitHome is an empty home with HOME set, entered.
func gitHome(t *testing.T) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	os.MkdirAll(filepath.Join(home, ".cursor"), 0o755)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CHRONICLE_HOME", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("COPILOT_HOME", "")
	t.Chdir(home)
	return home
}

func skillMD(name, body string) string {
	return "---\nname: " + name + "\ndescription: " + name + " skill\n---\n" + body + "\n"
}

func writeConfig(t *testing.T, dir, text string) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "chronicle.hcl"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRun(t *testing.T, want int, args ...string) string {
	t.Helper()
	out, errOut, code := runCLI(t, args...)
	if code != want {
		t.Fatalf("chronicle %s exited %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out, errOut)
	}
	return out + errOut
}

// TestGitSkills imports skills from a repository over real HTTPS git:
// branch, tag and pinned SHA; a tip that moves between two plans; --offline;
// skills outdated.
func TestGitSkills(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "skills")
	repo.Write("skills/pdf/SKILL.md", skillMD("pdf", "Read PDFs."))
	repo.Write("skills/office/docx/SKILL.md", skillMD("docx", "Write documents."))
	repo.Write("skills/office/xlsx/SKILL.md", skillMD("xlsx", "Spreadsheets."))
	first := repo.Commit("first")
	repo.Tag("v1")
	repo.Push()

	home := gitHome(t)
	cfg := filepath.Join(home, "dots")
	writeConfig(t, cfg, `
skill "bundle" {
  git     = "`+repo.URL()+`"
  ref     = "main"
  path    = "skills"
  include = ["pdf", "docx"]
}
skill "xlsx" {
  git  = "`+repo.URL()+`"
  ref  = "v1"
  path = "skills/office/xlsx"
}
link "cursor" {
  tools  = ["cursor"]
  skills = ["*"]
}
`)
	t.Chdir(cfg)
	out := mustRun(t, 2, "plan", "--detailed-exitcode")
	for _, want := range []string{"+ skill.pdf", "+ skill.docx", "+ skill.xlsx", "from " + repo.URL() + " at " + first[:12], `+ link.cursor["cursor"].skill.pdf`} {
		if !strings.Contains(out, want) {
			t.Errorf("first plan lacks %q:\n%s", want, out)
		}
	}
	mustRun(t, 0, "apply", "--auto-approve")
	if b, _ := os.ReadFile(filepath.Join(home, ".cursor", "skills", "docx", "SKILL.md")); !strings.Contains(string(b), "Write documents.") {
		t.Fatalf("docx not linked into cursor: %q", b)
	}
	if out := mustRun(t, 0, "plan", "--detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Fatalf("plan after apply:\n%s", out)
	}

	// The branch moves: the next plan shows the old and new SHA and the diff.
	repo.Write("skills/pdf/SKILL.md", skillMD("pdf", "Read PDFs, and fill in forms."))
	second := repo.Commit("forms")
	repo.Push()
	out = mustRun(t, 2, "plan", "--detailed-exitcode")
	for _, want := range []string{"~ skill.pdf", "main moved from " + first[:12] + " to " + second[:12], "+Read PDFs, and fill in forms."} {
		if !strings.Contains(out, want) {
			t.Errorf("plan after the tip moved lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "skill.xlsx") {
		t.Errorf("the tag-pinned skill changed:\n%s", out)
	}
	// Offline, nothing is fetched and the plan says so.
	out = mustRun(t, 0, "plan", "--offline", "--detailed-exitcode")
	if !strings.Contains(out, "Offline") || strings.Contains(out, "~ skill.pdf") {
		t.Errorf("offline plan:\n%s", out)
	}
	// skills outdated lists recorded against remote SHAs, without cloning.
	var rows []outdatedSkill
	if err := json.Unmarshal([]byte(mustRun(t, 0, "skills", "outdated", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, r := range rows {
		status[r.Name] = r.Status
	}
	if status["pdf"] != "outdated" || status["docx"] != "outdated" || status["xlsx"] != "up-to-date" {
		t.Errorf("outdated: %+v", rows)
	}
	mustRun(t, 0, "apply", "--auto-approve")
	if b, _ := os.ReadFile(filepath.Join(home, ".cursor", "skills", "pdf", "SKILL.md")); !strings.Contains(string(b), "fill in forms") {
		t.Fatalf("the new version is not linked: %q", b)
	}
	if out := mustRun(t, 0, "skills", "snapshots", "pdf"); !strings.Contains(out, "imported") {
		t.Errorf("snapshots: %s", out)
	}

	// A skill pinned to a full SHA never changes.
	writeConfig(t, cfg, `
skill "pdf" {
  git  = "`+repo.URL()+`"
  ref  = "`+first+`"
  path = "skills/pdf"
}
link "cursor" {
  tools  = ["cursor"]
  skills = ["*"]
}
`)
	out = mustRun(t, 2, "plan", "--detailed-exitcode", "--destroy")
	if !strings.Contains(out, "~ skill.pdf") || !strings.Contains(out, "-Read PDFs, and fill in forms.") {
		t.Errorf("pinning to the first commit:\n%s", out)
	}
}

// TestGitSkillHostileContent refuses a repository whose skill links outside
// itself, and an http:// remote.
func TestGitSkillHostileContent(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "evil")
	repo.Write("skills/evil/SKILL.md", skillMD("evil", "x"))
	repo.Symlink("skills/evil/passwd", "/etc/passwd")
	repo.Commit("evil")
	repo.Push()
	home := gitHome(t)
	cfg := filepath.Join(home, "dots")
	writeConfig(t, cfg, `
skill "evil" {
  git  = "`+repo.URL()+`"
  path = "skills/evil"
}
`)
	t.Chdir(cfg)
	out := mustRun(t, 1, "plan")
	if !strings.Contains(out, "Cannot fetch") || !strings.Contains(out, "passwd") {
		t.Errorf("hostile repository:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(home, ".chronicle", "skills", "evil")); !os.IsNotExist(err) {
		t.Error("something of the hostile skill reached the store")
	}
	writeConfig(t, cfg, `
skill "plain" {
  git = "http://127.0.0.1:1/skills.git"
}
`)
	if out := mustRun(t, 1, "validate"); !strings.Contains(out, "Only https://") {
		t.Errorf("http:// remote:\n%s", out)
	}
}

// TestSync follows a configuration repository: clone and apply, a pushed
// change, --check, and a refused dirty checkout.
func TestSync(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "dotfiles")
	repo.Write("chronicle.hcl", `
service "docs" {
  url = "https://docs.example.com/mcp"
}
link "direct" {
  tools    = ["cursor"]
  services = ["docs"]
}
`)
	repo.Commit("first")
	repo.Push()
	home := gitHome(t)

	out := mustRun(t, 0, "sync", "--repo", repo.URL())
	if !strings.Contains(out, "Cloned "+repo.URL()) || !strings.Contains(out, "Apply complete!") {
		t.Fatalf("first sync:\n%s", out)
	}
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	if b, _ := os.ReadFile(cursor); !strings.Contains(string(b), `"docs"`) {
		t.Fatalf("first sync did not apply: %s", b)
	}
	if out := mustRun(t, 0, "sync", "--check"); !strings.Contains(out, "nothing new") || !strings.Contains(out, "No changes.") {
		t.Fatalf("sync --check in sync:\n%s", out)
	}

	repo.Write("chronicle.hcl", `
service "docs" {
  url = "https://docs.example.com/mcp"
}
service "search" {
  url = "https://search.example.com/mcp"
}
link "direct" {
  tools    = ["cursor"]
  services = ["docs", "search"]
}
`)
	repo.Commit("add search")
	repo.Push()
	if out := mustRun(t, 2, "sync", "--check"); !strings.Contains(out, `+ link.direct["cursor"].service.search`) {
		t.Fatalf("sync --check after a push:\n%s", out)
	}
	mustRun(t, 0, "sync")
	if b, _ := os.ReadFile(cursor); !strings.Contains(string(b), `"search"`) {
		t.Fatalf("the pushed change was not applied: %s", b)
	}

	// A local edit in the checkout is never synced over.
	source := filepath.Join(home, ".chronicle", "source")
	os.WriteFile(filepath.Join(source, "local.hcl"), []byte("# mine\n"), 0o644)
	out = mustRun(t, 1, "sync")
	if !strings.Contains(out, "local.hcl") {
		t.Fatalf("a dirty checkout was not refused by name:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(source, "local.hcl")); err != nil {
		t.Fatal("the local file was touched")
	}
}

// BenchmarkPlanGitSkill times a plan with one git skill already imported:
// online (ls-remote of the ref), --offline, and locked (the commit comes
// from .chronicle.lock.hcl: no network call either).
func BenchmarkPlanGitSkill(b *testing.B) {
	srv := gittest.NewServer(b)
	repo := srv.Repo(b, "bench")
	repo.Write("skills/pdf/SKILL.md", skillMD("pdf", "x"))
	repo.Commit("one")
	repo.Push()
	home := filepath.Join(b.TempDir(), "home")
	os.MkdirAll(home, 0o755)
	b.Setenv("HOME", home)
	b.Setenv("CHRONICLE_HOME", "")
	cfg := filepath.Join(home, "dots")
	os.MkdirAll(cfg, 0o755)
	os.WriteFile(filepath.Join(cfg, "chronicle.hcl"), []byte(`skill "pdf" {
  git  = "`+repo.URL()+`"
  ref  = "main"
  path = "skills/pdf"
}
`), 0o644)
	b.Chdir(cfg)
	a := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{})
	if code := a.run([]string{"apply", "--auto-approve"}); code != 0 {
		b.Fatal("apply failed")
	}
	for _, mode := range []string{"online", "offline", "locked"} {
		if mode == "locked" {
			if code := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}).run([]string{"lock"}); code != 0 {
				b.Fatal("lock failed")
			}
		}
		b.Run(mode, func(b *testing.B) {
			args := []string{"plan", "--detailed-exitcode"}
			if mode == "offline" {
				args = append(args, "--offline")
			}
			start := time.Now()
			for b.Loop() {
				if code := newApp(strings.NewReader(""), &strings.Builder{}, &strings.Builder{}).run(args); code != 0 {
					b.Fatalf("plan exited %d", code)
				}
			}
			_ = start
		})
	}
}
