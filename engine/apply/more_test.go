package apply_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// Settings are recorded, changed and forgotten in the state alone.
func TestSettingsLifecycle(t *testing.T) {
	m := enginetest.New(t)
	m.Converge(m.Config(`
service "gh" {
  command = "npx"
}
policy "gh" {
  disabled_tools = ["delete_*"]
}
hub {
  listen = "127.0.0.1:7399"
}
chronova {
  api_url = "https://chronova.example/api/v1"
}
`))
	st := m.State()
	if st.Services["gh"].Command != "npx" || len(st.Policies["gh"].DisabledTools) != 1 || st.Hub == nil || st.Chronova == nil {
		t.Fatalf("state %+v", st)
	}
	m.Destroy = true
	m.Converge(m.Config(""))
	st = m.State()
	if len(st.Services) != 0 || len(st.Policies) != 0 || st.Hub != nil || st.Chronova != nil {
		t.Fatalf("settings left in the state: %+v", st)
	}
}

// A changed source replaces the central copy after a snapshot; a link to
// it keeps working, and a tracked copy is refreshed in one exchange.
func TestSkillUpdatesAndCopies(t *testing.T) {
	m := enginetest.New(t)
	skills(m)
	cfg := m.Config(everything)
	m.Converge(cfg)
	m.Skill("skills", "review", "Review code, version 2.")
	m.Converge(cfg)
	for _, p := range []string{".cursor/skills/review/SKILL.md", ".claude/skills/review/SKILL.md", ".chronicle/skills/review/SKILL.md"} {
		if b := m.Read(m.Path(p)); !strings.Contains(b, "version 2") {
			t.Errorf("%s holds %q", p, b)
		}
	}
	snaps, err := snapshot.List(fsys.OS{}, filepath.Join(m.Chronicle, "snapshots"), "review")
	if err != nil || len(snaps) < 2 {
		t.Fatalf("snapshots %+v %v: the replaced version is not kept", snaps, err)
	}
	// A copy edited while being removed is put back, never deleted.
	copyPlace := m.Path(".claude/skills/lint")
	m.Destroy = true
	p := m.Plan(m.Config(""))
	m.System = &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		if op.Name == "RenameNew" && op.Path == copyPlace {
			os.WriteFile(filepath.Join(copyPlace, "notes.md"), []byte("written at the last moment"), 0o644)
		}
		return nil
	}}
	r, _ := m.Apply(p)
	var failed string
	for _, f := range r.Failed {
		failed += f.Err.Error() + "\n"
	}
	if !strings.Contains(failed, "changed since the plan") {
		t.Fatalf("failures: %s", failed)
	}
	if b := m.Read(filepath.Join(copyPlace, "notes.md")); b != "written at the last moment" {
		t.Fatalf("the edited copy was removed or not put back: %q", b)
	}
	// The central skill it was copied from stays while the copy could not go.
	if _, err := os.Stat(filepath.Join(m.Store, "lint")); err != nil {
		t.Fatal("the central skill was removed while a copy of it could not be")
	}
}

// A git skill is fetched again at apply, at the commit the plan saw; a push
// between plan and apply fails the change and no link is made to it.
func TestGitSkillAtThePlannedCommit(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "skills")
	repo.Write("skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\nv1\n")
	repo.Commit("v1")
	repo.Push()
	m := enginetest.New(t)
	m.Online = true
	cfg := m.Config(fmt.Sprintf(`
skill "pdf" {
  git  = %q
  path = "skills/pdf"
}
link "all" {
  tools  = ["cursor"]
  skills = ["*"]
}
`, repo.URL()))
	p := m.Plan(cfg)
	repo.Write("skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\nv2\n")
	repo.Commit("v2")
	repo.Push()
	r, err := m.Apply(p)
	if err == nil || len(r.Failed) != 2 {
		t.Fatalf("apply after a push: %v, %d failed", err, len(r.Failed))
	}
	if _, err := os.Lstat(m.Path(".cursor/skills/pdf")); !os.IsNotExist(err) {
		t.Fatal("a link to a skill that was not imported was made")
	}
	m.Converge(cfg)
	if b := m.Read(filepath.Join(m.Store, "pdf", "SKILL.md")); !strings.Contains(b, "v2") {
		t.Fatalf("store holds %q", b)
	}
}
