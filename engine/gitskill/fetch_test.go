package gitskill_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// history builds a repository whose pdf skill says "v1" at tag v1 (and an
// annotated tag v1-notes), "v2" at the tip of main, and "dev" on branch dev.
func history(t *testing.T) (repo *gittest.Repo, v1, v2, dev string) {
	srv := gittest.NewServer(t)
	repo = srv.Repo(t, "skills")
	writeSkill(repo, "skills/pdf")
	repo.Write("skills/pdf/VERSION", "v1")
	v1 = repo.Commit("v1")
	repo.Tag("v1")
	repo.AnnotatedTag("v1-notes", "first release")
	repo.Write("skills/pdf/VERSION", "v2")
	v2 = repo.Commit("v2")
	repo.Branch("dev")
	repo.Write("skills/pdf/VERSION", "dev")
	dev = repo.Commit("dev")
	repo.Switch("main")
	repo.Push()
	return repo, v1, v2, dev
}

func TestFetchRefs(t *testing.T) {
	repo, v1, v2, dev := history(t)
	tests := []struct {
		ref, sha, version string
	}{
		{"", v2, "v2"},
		{"main", v2, "v2"},
		{"dev", dev, "dev"},
		{"v1", v1, "v1"},
		{"v1-notes", v1, "v1"},
		{v1, v1, "v1"},
		{strings.ToUpper(dev), dev, "dev"},
	}
	for _, tt := range tests {
		t.Run("ref="+tt.ref, func(t *testing.T) {
			start := time.Now()
			f := mustFetch(t, gitskill.FetchOptions{URL: repo.URL(), Ref: tt.ref, Path: "skills/pdf"})
			t.Logf("fetch took %v", time.Since(start))
			if f.SHA != tt.sha {
				t.Errorf("SHA = %s, want %s", f.SHA, tt.sha)
			}
			if got := names(f); !slices.Equal(got, []string{"pdf"}) {
				t.Fatalf("skills = %v, want [pdf]", got)
			}
			b, err := os.ReadFile(filepath.Join(f.Skills[0].Dir, "VERSION"))
			if err != nil || string(b) != tt.version {
				t.Errorf("VERSION = %q, %v; want %q", b, err, tt.version)
			}
			if h, _ := skills.Hash(fsys.OS{}, f.Skills[0].Dir); h != f.Skills[0].Hash {
				t.Errorf("Hash = %s, want %s", f.Skills[0].Hash, h)
			}
			if sha, err := gitskill.RemoteSHA(t.Context(), repo.URL(), tt.ref, ""); err != nil || sha != tt.sha {
				t.Errorf("RemoteSHA = %s, %v; want %s", sha, err, tt.sha)
			}
		})
	}
}

func TestFetchUnknownRef(t *testing.T) {
	repo, _, _, _ := history(t)
	for _, ref := range []string{"nope", strings.Repeat("ab", 20)} {
		_, err := fetch(t, gitskill.FetchOptions{URL: repo.URL(), Ref: ref})
		if err == nil || !strings.Contains(err.Error(), repo.URL()) {
			t.Errorf("ref %s: err = %v, want an error naming the URL", ref, err)
		}
	}
}

func TestFetchCleanup(t *testing.T) {
	repo, _, _, _ := history(t)
	var progress strings.Builder
	f := mustFetch(t, gitskill.FetchOptions{URL: repo.URL(), Progress: &progress})
	t.Logf("progress: %q", progress.String())
	dir := f.Skills[0].Dir
	if err := f.Cleanup(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s still exists after Cleanup: %v", dir, err)
	}
}

func TestRemoteSHAFollowsTheTip(t *testing.T) {
	repo, _, v2, _ := history(t)
	first, err := gitskill.RemoteSHA(t.Context(), repo.URL(), "main", "")
	if err != nil || first != v2 {
		t.Fatalf("RemoteSHA = %s, %v; want %s", first, err, v2)
	}
	repo.Write("skills/pdf/VERSION", "v3")
	v3 := repo.Commit("v3")
	repo.Push()
	second, err := gitskill.RemoteSHA(t.Context(), repo.URL(), "main", "")
	if err != nil || second != v3 {
		t.Fatalf("after a push RemoteSHA = %s, %v; want %s", second, err, v3)
	}
	pinned, err := gitskill.RemoteSHA(t.Context(), repo.URL(), v2, "")
	if err != nil || pinned != v2 {
		t.Errorf("a pinned SHA came back as %s, %v", pinned, err)
	}
}

func TestFetchNested(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "nested")
	for _, dir := range []string{
		"skills/alpha",
		"skills/group/beta",
		"skills/a/b/c/d/gamma",      // five levels below skills/
		"skills/a/b/c/d/e/too-deep", // six
		"other/outside",
	} {
		writeSkill(repo, dir)
	}
	repo.Write("skills/alpha/sub/SKILL.md", manifest("sub")) // content of alpha, not a skill
	repo.Write("README.md", "hello")
	repo.Commit("skills")
	repo.Push()

	f := mustFetch(t, gitskill.FetchOptions{URL: repo.URL(), Path: "skills"})
	got := names(f)
	slices.Sort(got)
	if want := []string{"alpha", "beta", "gamma"}; !slices.Equal(got, want) {
		t.Errorf("all skills = %v, want %v", got, want)
	}

	f = mustFetch(t, gitskill.FetchOptions{URL: repo.URL(), Path: "skills", Include: []string{"gamma", "alpha"}})
	if got, want := names(f), []string{"gamma", "alpha"}; !slices.Equal(got, want) {
		t.Errorf("included skills = %v, want %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(f.Skills[1].Dir, "sub", "SKILL.md")); err != nil {
		t.Errorf("alpha's nested folder is missing: %v", err)
	}

	// From the root, gamma is six levels down.
	f = mustFetch(t, gitskill.FetchOptions{URL: repo.URL()})
	got = names(f)
	slices.Sort(got)
	if want := []string{"alpha", "beta", "outside"}; !slices.Equal(got, want) {
		t.Errorf("skills from the root = %v, want %v", got, want)
	}

	for _, o := range []gitskill.FetchOptions{
		{Path: "skills", Include: []string{"too-deep"}},
		{Path: "skills", Include: []string{"missing"}},
		{Path: "nowhere"},
		{Path: "../etc"},
		{Path: "skills/alpha/sub/x"},
	} {
		o.URL = repo.URL()
		if _, err := fetch(t, o); err == nil || !strings.Contains(err.Error(), repo.URL()) {
			t.Errorf("%+v: err = %v, want an error naming the URL", o, err)
		}
	}
}

func TestFetchSkillAtRoot(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "solo")
	repo.Write("SKILL.md", manifest("solo"))
	repo.Commit("solo")
	repo.Push()
	f := mustFetch(t, gitskill.FetchOptions{URL: repo.URL()})
	if got := names(f); !slices.Equal(got, []string{"solo"}) {
		t.Errorf("skills = %v, want [solo] (named after the repository)", got)
	}
}
