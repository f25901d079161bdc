package skillhub_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/skillhub"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

const declared = `
skill "review" {
  source = "./skills/review"
}
skill "lint" {
  source = "./skills/lint"
}
link "links" {
  tools  = ["cursor"]
  skills = ["*"]
}
link "copies" {
  tools  = ["claude"]
  skills = ["*"]
  mode   = "copy"
}
`

// applied returns a machine where review and lint are central skills,
// linked into cursor and copied into claude.
func applied(t *testing.T) (*enginetest.Machine, skillhub.Machine) {
	m := enginetest.New(t)
	m.Skill("skills", "review", "Review code.")
	m.Skill("skills", "lint", "Lint code.")
	m.Converge(m.Config(declared))
	return m, skillhub.Machine{ChronicleHome: m.Chronicle, Env: m.Env, Tools: m.Tools, State: m.State()}
}

func get(t *testing.T, hm skillhub.Machine, name string) skillhub.Skill {
	t.Helper()
	s, err := skillhub.Get(fsys.OS{}, hm, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLinkStatuses(t *testing.T) {
	m, hm := applied(t)
	all, err := skillhub.List(fsys.OS{}, hm)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Name != "lint" || all[1].Name != "review" {
		t.Fatalf("central skills: %+v", all)
	}
	r := all[1]
	if r.Links["cursor"] != skillhub.Linked || r.Links["claude"] != skillhub.Copied {
		t.Fatalf("links after apply: %v", r.Links)
	}
	if r.Description != "review for tests" || r.Origin.Source == "" || r.Tags == nil || r.Rating != 0 {
		t.Fatalf("review: %+v", r)
	}
	// Every tool with a user-level skills folder has a key.
	for _, tool := range []string{"codex", "agents", "gemini"} {
		if _, ok := r.Links[tool]; !ok {
			t.Errorf("no key for %s in %v", tool, r.Links)
		}
	}

	// The tracked copy is edited: drift. Other tools get a foreign link, a
	// real folder, a file and a dangling link.
	if err := os.WriteFile(m.Path(".claude/skills/review/SKILL.md"), []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	elsewhere := m.Skill(m.Path("elsewhere"), "review", "Another review.")
	must(t, os.MkdirAll(m.Path(".agents/skills"), 0o755))
	must(t, os.Symlink(elsewhere, m.Path(".agents/skills/review")))
	m.Skill(m.Path(".gemini/skills"), "review", "A real folder.")
	m.Write(".gemini/skills/lint", "a file")
	must(t, os.Symlink(m.Path("gone"), filepath.Join(filepath.Dir(m.Path(".agents/skills/review")), "lint")))
	r, l := get(t, hm, "review"), get(t, hm, "lint")
	want := map[string]string{"claude": skillhub.Drift, "cursor": skillhub.Linked, "codex": skillhub.Foreign, "agents": skillhub.Foreign, "gemini": skillhub.Directory}
	for tool, status := range want {
		if r.Links[tool] != status {
			t.Errorf("review in %s: %s, want %s", tool, r.Links[tool], status)
		}
	}
	if l.Links["gemini"] != skillhub.File || l.Links["agents"] != skillhub.Dangling {
		t.Errorf("lint: %v", l.Links)
	}
}

func TestProjectLinksListedApart(t *testing.T) {
	m, hm := applied(t)
	project := m.Path("work/api")
	hm.Env.Projects = []string{project}
	must(t, os.MkdirAll(filepath.Join(project, ".claude", "skills"), 0o755))
	must(t, os.Symlink(filepath.Join(m.Store, "review"), filepath.Join(project, ".claude", "skills", "review")))
	r := get(t, hm, "review")
	if len(r.Projects) != 1 || r.Projects[0].Project != project || r.Projects[0].Status != skillhub.Linked || r.Projects[0].Tool != "claude" {
		t.Fatalf("projects: %+v", r.Projects)
	}
	if r.Links["claude"] != skillhub.Copied {
		t.Fatalf("the user-level status changed: %v", r.Links)
	}
}

func TestMetadata(t *testing.T) {
	m, hm := applied(t)
	before := enginetest.Snapshot(t, m.Store)
	got, err := skillhub.UpdateMeta(fsys.OS{}, m.Chronicle, "review", func(meta *skillhub.Meta) error {
		meta.Tags = append(meta.Tags, "go", "code-review", "go")
		meta.Rating = 4
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Tags, []string{"code-review", "go"}) || got.Rating != 4 {
		t.Fatalf("meta: %+v", got)
	}
	r := get(t, hm, "review")
	if !slices.Equal(r.Tags, got.Tags) || r.Rating != 4 {
		t.Fatalf("listed: %+v", r)
	}
	if !enginetest.Equal(before, enginetest.Snapshot(t, m.Store)) {
		t.Fatal("tagging changed the central store")
	}
	metaFile := skillhub.MetaPath(m.Chronicle)
	saved := m.Read(metaFile)
	if info, err := os.Stat(metaFile); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("meta file: %v %v", info, err)
	}

	for name, edit := range map[string]func(*skillhub.Meta) error{
		"rating 6":  func(meta *skillhub.Meta) error { meta.Rating = 6; return nil },
		"rating -1": func(meta *skillhub.Meta) error { meta.Rating = -1; return nil },
		"upper tag": func(meta *skillhub.Meta) error { meta.Tags = []string{"Go"}; return nil },
		"long tag": func(meta *skillhub.Meta) error {
			meta.Tags = []string{"a123456789012345678901234567890123"}
			return nil
		},
		"space tag":  func(meta *skillhub.Meta) error { meta.Tags = []string{"a b"}; return nil },
		"empty tag":  func(meta *skillhub.Meta) error { meta.Tags = []string{""}; return nil },
		"edit fails": func(*skillhub.Meta) error { return errors.New("no") },
	} {
		if _, err := skillhub.UpdateMeta(fsys.OS{}, m.Chronicle, "review", edit); err == nil {
			t.Errorf("%s: accepted", name)
		}
		if m.Read(metaFile) != saved {
			t.Fatalf("%s: the file changed", name)
		}
	}
	if _, err := skillhub.UpdateMeta(fsys.OS{}, m.Chronicle, "nope", func(*skillhub.Meta) error { return nil }); !errors.Is(err, skillhub.ErrNoSkill) {
		t.Fatalf("unknown skill: %v", err)
	}
	if m.Read(metaFile) != saved {
		t.Fatal("an unknown skill changed the file")
	}

	// A removed skill's metadata is dropped at the next write.
	if _, err := skillhub.UpdateMeta(fsys.OS{}, m.Chronicle, "lint", func(meta *skillhub.Meta) error { meta.Rating = 2; return nil }); err != nil {
		t.Fatal(err)
	}
	must(t, os.RemoveAll(filepath.Join(m.Store, "review")))
	if _, err := skillhub.UpdateMeta(fsys.OS{}, m.Chronicle, "lint", func(meta *skillhub.Meta) error { meta.Rating = 3; return nil }); err != nil {
		t.Fatal(err)
	}
	all, err := skillhub.LoadMeta(fsys.OS{}, metaFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, kept := all["review"]; kept || all["lint"].Rating != 3 {
		t.Fatalf("after removing review: %+v", all)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
