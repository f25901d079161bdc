package gitskill_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
)

// childEnv marks a re-executed test binary (see subprocess_test.go), which
// must trust only what its own SSL_CERT_FILE says.
const childEnv = "GITSKILL_TEST_CHILD_URL"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(m.Run())
	}
	gittest.Main(m)
}

// manifest is a valid SKILL.md for name.
func manifest(name string) string {
	return "---\nname: " + name + "\ndescription: The " + name + " skill.\n---\n# " + name + "\n"
}

// writeSkill adds a valid skill folder at dir (its last element is the name).
func writeSkill(r *gittest.Repo, dir string) {
	r.Write(dir+"/SKILL.md", manifest(filepath.Base(dir)))
}

// fetch runs Fetch with o, filling Dir, and registers the cleanup.
func fetch(t *testing.T, o gitskill.FetchOptions) (*gitskill.Fetched, error) {
	t.Helper()
	o.Dir = t.TempDir()
	f, err := gitskill.Fetch(context.Background(), o)
	if f != nil {
		t.Cleanup(func() { f.Cleanup() })
	}
	return f, err
}

// mustFetch is fetch that fails the test on error.
func mustFetch(t *testing.T, o gitskill.FetchOptions) *gitskill.Fetched {
	t.Helper()
	f, err := fetch(t, o)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// names lists the fetched skills' names.
func names(f *gitskill.Fetched) []string {
	var out []string
	for _, s := range f.Skills {
		out = append(out, s.Name)
	}
	return out
}
