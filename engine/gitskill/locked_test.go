package gitskill_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill"
)

// TestFetchLockedCommit takes an older commit of a branch that has moved on:
// by SHA at depth 1 where the server allows it, else by a full clone with a
// note.
func TestFetchLockedCommit(t *testing.T) {
	for _, bySHA := range []bool{true, false} {
		name := "full clone fallback"
		if bySHA {
			name = "by SHA at depth 1"
		}
		t.Run(name, func(t *testing.T) {
			repo, v1, _, _ := history(t)
			if bySHA {
				repo.AllowFetchBySHA()
			}
			dir := t.TempDir()
			f, err := gitskill.Fetch(context.Background(), gitskill.FetchOptions{URL: repo.URL(), Ref: "main", Commit: v1, Path: "skills/pdf", Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Cleanup()
			if f.SHA != v1 {
				t.Errorf("SHA = %s, want the locked %s", f.SHA, v1)
			}
			if b, _ := os.ReadFile(filepath.Join(f.Skills[0].Dir, "VERSION")); string(b) != "v1" {
				t.Errorf("VERSION = %q, want the locked commit's v1", b)
			}
			shallow, _ := filepath.Glob(filepath.Join(dir, "*", "repo.git", "shallow"))
			if bySHA {
				if f.Note != "" || len(shallow) != 1 {
					t.Errorf("fetch by SHA: note %q, shallow files %v; want no note and a shallow clone", f.Note, shallow)
				}
				return
			}
			if !strings.Contains(f.Note, "does not serve a commit by its SHA") || !strings.Contains(f.Note, v1[:12]) || len(shallow) != 0 {
				t.Errorf("fallback: note %q, shallow files %v; want a note naming the commit and a full clone", f.Note, shallow)
			}
		})
	}
}

func TestFetchLockedCommitUnknown(t *testing.T) {
	repo, _, _, _ := history(t)
	repo.AllowFetchBySHA()
	_, err := fetch(t, gitskill.FetchOptions{URL: repo.URL(), Ref: "main", Commit: strings.Repeat("ab", 20)})
	if err == nil || !strings.Contains(err.Error(), repo.URL()) {
		t.Errorf("err = %v, want an error naming the URL", err)
	}
}
