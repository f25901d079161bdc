package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
	"github.com/chronicle-dev/chronicle/engine/lockfile"
)

// installedPDF is the pdf skill's SKILL.md as Cursor sees it in home.
func installedPDF(t *testing.T, home string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(home, ".cursor", "skills", "pdf", "SKILL.md"))
	if err != nil {
		t.Fatalf("the pdf skill is not installed for cursor: %v", err)
	}
	return string(b)
}

func wantIn(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, out)
		}
	}
}

// TestLockFile: with .chronicle.lock.hcl, a moved branch does not change
// what any machine installs until chronicle lock --upgrade moves the entry.
func TestLockFile(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "skills")
	repo.Write("skills/pdf/SKILL.md", skillMD("pdf", "Read PDFs."))
	repo.Write("skills/docx/SKILL.md", skillMD("docx", "Write documents."))
	first := repo.Commit("first")
	repo.Push()

	cfg := t.TempDir()
	pdfBlock := `
skill "pdf" {
  git  = "` + repo.URL() + `"
  ref  = "main"
  path = "skills/pdf"
}
link "cursor" {
  tools  = ["cursor"]
  skills = ["*"]
}
`
	writeConfig(t, cfg, pdfBlock)
	gitHome(t)
	t.Chdir(cfg)

	out := mustRun(t, 0, "lock")
	wantIn(t, "chronicle lock", out, "+ skill.pdf  main at "+first[:12], "Wrote "+lockfile.FileName+" (1 skill)")
	lockText, err := os.ReadFile(filepath.Join(cfg, lockfile.FileName))
	if err != nil {
		t.Fatal(err)
	}
	wantIn(t, "the lock file", string(lockText), "version = 1", `skill "pdf"`, `commit = "`+first+`"`, `ref    = "main"`)
	if out := mustRun(t, 0, "validate"); !strings.Contains(out, "(1 file)") {
		t.Errorf("the loader read the lock file as configuration:\n%s", out)
	}

	// The branch moves before the first apply: the locked commit is
	// installed, fetched whole since this server will not serve a commit
	// by SHA, and the plan says so.
	repo.Write("skills/pdf/SKILL.md", skillMD("pdf", "Read PDFs, and fill in forms."))
	second := repo.Commit("forms")
	repo.Push()
	out = mustRun(t, 0, "apply", "--auto-approve")
	wantIn(t, "first apply", out, "+ skill.pdf", first[:12]+" (locked)", "Cloned the whole repository")
	if got := installedPDF(t, home()); strings.Contains(got, "forms") {
		t.Fatalf("apply installed the tip, not the locked commit:\n%s", got)
	}
	if out := mustRun(t, 0, "plan", "--detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Fatalf("plan after the branch moved, with the lock:\n%s", out)
	}
	// skills outdated still reports the newer commit.
	var rows []outdatedSkill
	if err := json.Unmarshal([]byte(mustRun(t, 0, "skills", "outdated", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Status != "outdated" || rows[0].Recorded != first || rows[0].Remote != second {
		t.Errorf("skills outdated with a lock: %+v", rows)
	}

	// A second machine, a day later, gets the same commit, now fetched
	// by SHA at depth 1 (no note).
	repo.AllowFetchBySHA()
	gitHome(t)
	t.Chdir(cfg)
	out = mustRun(t, 0, "apply", "--auto-approve")
	if strings.Contains(out, "Cloned the whole repository") {
		t.Errorf("the locked commit was not fetched by SHA:\n%s", out)
	}
	if got := installedPDF(t, home()); strings.Contains(got, "forms") || !strings.Contains(got, "Read PDFs.") {
		t.Fatalf("the second machine did not get the locked commit:\n%s", got)
	}

	// lock never moves an entry.
	out = mustRun(t, 0, "lock")
	wantIn(t, "chronicle lock again", out, lockfile.FileName+" is up to date")
	if now, _ := os.ReadFile(filepath.Join(cfg, lockfile.FileName)); string(now) != string(lockText) {
		t.Errorf("chronicle lock changed a complete lock file:\n%s", now)
	}

	// A block whose ref changed no longer matches its entry.
	writeConfig(t, cfg, strings.Replace(pdfBlock, `"main"`, `"dev"`, 1))
	out = mustRun(t, 1, "plan")
	wantIn(t, "plan with a stale entry", out, "does not match the skill block", "chronicle lock --upgrade skill.pdf")
	out = mustRun(t, 1, "lock")
	wantIn(t, "lock with a stale entry", out, "chronicle lock --upgrade skill.pdf", "nothing was changed")
	writeConfig(t, cfg, pdfBlock)

	// --upgrade moves the entry, shows it, and the next apply follows.
	out = mustRun(t, 0, "lock", "--upgrade", "skill.pdf")
	wantIn(t, "lock --upgrade", out, "~ skill.pdf  main: "+first[:12]+" -> "+second[:12])
	out = mustRun(t, 2, "plan", "--detailed-exitcode")
	wantIn(t, "plan after the upgrade", out, "~ skill.pdf", "the locked commit of main moved from "+first[:12]+" to "+second[:12])
	mustRun(t, 0, "apply", "--auto-approve")
	if got := installedPDF(t, home()); !strings.Contains(got, "fill in forms") {
		t.Fatalf("apply after lock --upgrade did not install the new commit:\n%s", got)
	}
	if out := mustRun(t, 1, "lock", "--upgrade", "skill.nope"); !strings.Contains(out, "git skills: skill.pdf") {
		t.Errorf("an unknown ADDR: %s", out)
	}

	// A git skill missing from the lock is installed at its tip, with a
	// warning to run chronicle lock; apply does not write the lock file.
	lockText, _ = os.ReadFile(filepath.Join(cfg, lockfile.FileName))
	writeConfig(t, cfg, pdfBlock+`
skill "docx" {
  git  = "`+repo.URL()+`"
  path = "skills/docx"
}
`)
	out = mustRun(t, 0, "apply", "--auto-approve")
	wantIn(t, "apply of an unlocked skill", out, "+ skill.docx", "Not in the lock file", "Run chronicle lock")
	if now, _ := os.ReadFile(filepath.Join(cfg, lockfile.FileName)); string(now) != string(lockText) {
		t.Errorf("apply wrote the lock file:\n%s", now)
	}
	out = mustRun(t, 0, "lock")
	wantIn(t, "lock of the new block", out, "+ skill.docx  (default branch) at "+second[:12])
}

func home() string { return os.Getenv("HOME") }

// TestLockFileMistakes: a lock file chronicle cannot read stops plan with
// a diagnostic that points into it; validate reports it too.
func TestLockFileMistakes(t *testing.T) {
	cfg := t.TempDir()
	writeConfig(t, cfg, `skill "pdf" {
  git  = "https://example.com/skills.git"
  path = "skills/pdf"
}
`)
	os.WriteFile(filepath.Join(cfg, lockfile.FileName), []byte("version = 1\n\nskill \"pdf\" {\n  url    = \"https://example.com/skills.git\"\n  ref    = \"\"\n  commit = \"abc123\"\n}\n"), 0o644)
	gitHome(t)
	t.Chdir(cfg)
	out := mustRun(t, 1, "plan")
	wantIn(t, "plan with a broken lock file", out, "Invalid locked commit", lockfile.FileName+" line 6", `commit = "abc123"`, "chronicle lock --upgrade skill.pdf")
	mustRun(t, 1, "validate")
	os.WriteFile(filepath.Join(cfg, lockfile.FileName), []byte("version = 7\n"), 0o644)
	out = mustRun(t, 1, "lock")
	wantIn(t, "lock with a newer format", out, "format version 7", "Upgrade chronicle")
}

// TestLockHoldsAbsentSkills: the lock file is the repository's, so a git
// skill whose when is false on this machine is locked here too, and
// --upgrade keeps its entry; its auth is not needed to keep it.
func TestLockHoldsAbsentSkills(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "skills")
	repo.Write("skills/pdf/SKILL.md", skillMD("pdf", "Read PDFs."))
	first := repo.Commit("first")
	repo.Push()

	cfg := t.TempDir()
	block := `
skill "pdf" {
  when = false
  git  = "` + repo.URL() + `"
  path = "skills/pdf"
  %s
}
`
	writeConfig(t, cfg, strings.Replace(block, "%s", "", 1))
	gitHome(t)
	t.Chdir(cfg)
	out := mustRun(t, 0, "lock")
	wantIn(t, "chronicle lock", out, "+ skill.pdf  (default branch) at "+first[:12])
	out = mustRun(t, 0, "lock", "--upgrade")
	if strings.Contains(out, "- skill.pdf") {
		t.Fatalf("lock --upgrade dropped the entry of a skill absent here:\n%s", out)
	}
	// Nothing asks for its tip now: a token this machine lacks is not read.
	writeConfig(t, cfg, strings.Replace(block, "%s", `auth = secret("env:WORK_ONLY_TOKEN")`, 1))
	out = mustRun(t, 0, "lock")
	wantIn(t, "chronicle lock", out, lockfile.FileName+" is up to date (1 skill)")
	if out := mustRun(t, 0, "plan"); strings.Contains(out, "skill.pdf") {
		t.Fatalf("plan installs a skill absent here:\n%s", out)
	}
}
