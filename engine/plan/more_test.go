package plan_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

func TestMain(m *testing.M) { gittest.Main(m) }

func skillRepo(t *testing.T) *gittest.Repo {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "skills")
	repo.Write("skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\nv1\n")
	repo.Commit("v1")
	repo.Push()
	return repo
}

func gitConfig(url string) string {
	return fmt.Sprintf(`
skill "pdf" {
  git  = %q
  ref  = "main"
  path = "skills/pdf"
}
link "all" {
  tools  = ["cursor"]
  skills = ["*"]
}
`, url)
}

func TestGitSkillsFollowTheirRemote(t *testing.T) {
	repo := skillRepo(t)
	m := enginetest.New(t)
	cfg := m.Config(gitConfig(repo.URL()))

	// Offline, a git skill never imported is only a warning.
	p := m.Plan(cfg)
	if p.Has("skill.pdf") || !strings.Contains(enginetest.Describe(p), "Not imported: offline") {
		t.Fatalf("offline plan:\n%s", enginetest.Describe(p))
	}
	m.Online = true
	c := enginetest.Change(t, m.Plan(cfg), "skill.pdf")
	if c.Action != plan.Create || c.Skill.Git == nil || !strings.Contains(c.Reason, repo.URL()) {
		t.Fatalf("first plan: %s %q %+v", c.Action, c.Reason, c.Skill.Git)
	}
	m.Converge(cfg)
	if b, _ := os.ReadFile(filepath.Join(m.Store, "pdf", "SKILL.md")); !strings.Contains(string(b), "v1") {
		t.Fatalf("the store holds %q", b)
	}

	// The remote moves: an update naming both commits.
	repo.Write("skills/pdf/SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\nv2\n")
	repo.Commit("v2")
	repo.Push()
	c = enginetest.Change(t, m.Plan(cfg), "skill.pdf")
	if c.Action != plan.Update || !strings.Contains(c.Reason, "main moved from") {
		t.Fatalf("after a push: %s %q", c.Action, c.Reason)
	}
	m.Converge(cfg)
	// A commit that changes nothing of the skill: recorded, files unchanged.
	repo.Write("README.md", "other files")
	repo.Commit("docs")
	repo.Push()
	c = enginetest.Change(t, m.Plan(cfg), "skill.pdf")
	if c.Action != plan.Update || !strings.Contains(c.Reason, "did not change") {
		t.Fatalf("after an unrelated commit: %s %q", c.Action, c.Reason)
	}
	m.Converge(cfg)

	// A block without include must bring exactly its own skill.
	bad := m.Config(strings.Replace(gitConfig(repo.URL()), `path = "skills/pdf"`, `path = "skills"`, 1))
	repo.Write("skills/other/SKILL.md", "---\nname: other\ndescription: x\n---\n")
	repo.Commit("two skills")
	repo.Push()
	if p := m.Plan(bad); len(p.Errors()) == 0 {
		t.Fatalf("two skills under a block without include:\n%s", enginetest.Describe(p))
	}
}

func TestSettingsLifecycle(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(`
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
`)
	p := m.Plan(cfg)
	for _, addr := range []string{"service.gh", "policy.gh", "hub", "chronova"} {
		if c := enginetest.Change(t, p, addr); c.Action != plan.Create || c.Before != nil {
			t.Errorf("%s: %s, Before %+v", addr, c.Action, c.Before)
		}
	}
	if s := p.Summary(); s.Add != 4 {
		t.Fatalf("summary %+v", s)
	}
	m.Converge(cfg)
	cfg = m.Config(`
service "gh" {
  command = "npx"
  args    = ["-y"]
}
policy "gh" {
  disabled_tools = ["delete_*", "merge_*"]
}
hub {
  listen = "127.0.0.1:7400"
}
`)
	p = m.Plan(cfg)
	for addr, want := range map[string]plan.Action{"service.gh": plan.Update, "policy.gh": plan.Update, "hub": plan.Update, "chronova": plan.Delete} {
		c := enginetest.Change(t, p, addr)
		if c.Action != want {
			t.Errorf("%s: %s, want %s", addr, c.Action, want)
		}
		if want == plan.Update && !strings.Contains(c.Diff, "+") {
			t.Errorf("%s: no diff", addr)
		}
	}
	m.Converge(cfg)
	m.Destroy = true
	p = m.Plan(m.Config(""))
	for _, addr := range []string{"service.gh", "policy.gh", "hub"} {
		if c := enginetest.Change(t, p, addr); c.Action != plan.Delete {
			t.Errorf("%s: %s", addr, c.Action)
		}
	}
}

func TestProjectLinks(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	os.MkdirAll(project, 0o755)
	m.Skill("skills", "review", "Review code.")
	cfg := m.Config(fmt.Sprintf(`
service "db" {
  command = "uvx"
  project = %q
}
skill "review" {
  source = "./skills/review"
}
link "api" {
  tools    = ["cursor", "claude"]
  services = ["db"]
  skills   = ["review"]
  project  = %q
}
`, project, project))
	p := m.Plan(cfg)
	// cursor keeps no project skills folder: an error for that link only.
	if c := enginetest.Change(t, p, `link.api["cursor"].service.db`); c.Path != filepath.Join(project, ".cursor", "mcp.json") {
		t.Fatalf("cursor entry goes to %s", c.Path)
	}
	if c := enginetest.Change(t, p, `link.api["claude"].skill.review`); c.Path != filepath.Join(project, ".claude", "skills", "review") {
		t.Fatalf("claude skill goes to %s", c.Path)
	}
	if !strings.Contains(enginetest.Describe(p), "keeps no skills folder for project") {
		t.Fatalf("no error for cursor's project skills:\n%s", enginetest.Describe(p))
	}
}

func TestDiagnosticsOfTheDeclaration(t *testing.T) {
	m := enginetest.New(t)
	m.Skill("skills", "named-wrong", "x")
	os.Rename(filepath.Join(m.ConfigDir, "skills", "named-wrong"), filepath.Join(m.ConfigDir, "skills", "review"))
	os.MkdirAll(filepath.Join(m.ConfigDir, "skills", "empty"), 0o755)
	cfg := m.Config(`
skill "review" {
  source = "./skills/review"
}
skill "empty" {
  source = "./skills/empty"
}
link "l" {
  tools  = ["windsurf"]
  skills = ["review"]
}
link "h" {
  tools = ["agents"]
  hub   = true
}
`)
	os.RemoveAll(filepath.Join(m.ConfigDir, "skills", "empty"))
	text := enginetest.Describe(m.Plan(cfg))
	for _, want := range []string{`is "named-wrong", not "review"`, "does not exist", "windsurf keeps no skills folder", "agents keeps no MCP server list"} {
		if !strings.Contains(text, want) {
			t.Errorf("no diagnostic %q in:\n%s", want, text)
		}
	}
}

func TestDestroyGuard(t *testing.T) {
	m := enginetest.New(t)
	m.Skill("skills", "review", "Review code.")
	m.Converge(m.Config(`
skill "review" {
  source = "./skills/review"
}
link "l" {
  tools  = ["cursor"]
  skills = ["*"]
}
`))
	other := t.TempDir()
	m.ConfigDir = other
	p := m.Plan(m.Config(""))
	if len(p.Errors()) != 1 || !strings.Contains(p.Errors()[0].Detail, "run chronicle from there") {
		t.Fatalf("errors %+v", p.Errors())
	}
}

func TestActionsReadAndWriteAsJSON(t *testing.T) {
	for a := plan.NoOp; a <= plan.Read; a++ {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var back plan.Action
		if err := json.Unmarshal(b, &back); err != nil || back != a {
			t.Fatalf("%s → %s → %v (%v)", a, b, back, err)
		}
		if a.Symbol() == "" {
			t.Fatalf("%s has no symbol", a)
		}
	}
	var a plan.Action
	if err := json.Unmarshal([]byte(`"explode"`), &a); err == nil {
		t.Fatal("an unknown action was read")
	}
	p := &plan.Plan{Changes: []plan.Change{{Action: plan.Create}, {Action: plan.Replace}, {Action: plan.Conflict}, {Action: plan.Read}, {Action: plan.Delete}, {Action: plan.Update}}}
	if s := p.Summary(); s != (plan.Summary{Add: 2, Change: 1, Remove: 2, Conflict: 1}) {
		t.Fatalf("summary %+v", s)
	}
}
