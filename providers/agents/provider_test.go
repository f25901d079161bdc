package agents

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

func TestSkillDirs(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "work", "api")
	got := New().SkillDirs(provider.Env{Home: home, Projects: []string{project}})
	want := []provider.SkillDir{
		{Tool: "agents", Scope: provider.ScopeUser, Dir: filepath.Join(home, ".agents", "skills"), SharedWith: []string{"codex"}},
		{Tool: "agents", Scope: provider.ScopeProject, Project: project, Dir: filepath.Join(project, ".agents", "skills"), SharedWith: []string{"codex"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SkillDirs =\n%+v\nwant\n%+v", got, want)
	}
}

func TestNoMCP(t *testing.T) {
	p := New()
	if p.Name() != "agents" {
		t.Errorf("Name = %q", p.Name())
	}
	if locs := p.Locations(provider.Env{Home: t.TempDir()}); len(locs) != 0 {
		t.Errorf("Locations = %v, want none", locs)
	}
	_, parseErr := p.Parse(filepath.Join(t.TempDir(), "x"), []byte("{}"))
	_, renderErr := p.Render(provider.Entry{Name: "x"})
	for name, err := range map[string]error{
		"Parse":  parseErr,
		"Render": renderErr,
	} {
		if !errors.Is(err, ErrNoMCP) {
			t.Errorf("%s error = %v, want ErrNoMCP", name, err)
		}
	}
}
