package claude

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// KnownProjects gives back its last parse only for the very same bytes: a
// rewrite of the same size (Claude Code's next version of the file) is
// read again.
func TestKnownProjectsFollowsTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), ".claude.json")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"projects": {"/a/one": {"history": [1]}, "relative": {}}}`)
	if got := KnownProjects(file); !slices.Equal(got, []string{"/a/one"}) {
		t.Fatalf("got %q, want the absolute project keys", got)
	}
	if got := KnownProjects(file); !slices.Equal(got, []string{"/a/one"}) {
		t.Fatalf("asked again: got %q", got)
	}
	write(`{"projects": {"/a/two": {"history": [1]}, "relative": {}}}`)
	if got := KnownProjects(file); !slices.Equal(got, []string{"/a/two"}) {
		t.Fatalf("after a rewrite of the same size: got %q, want the new project", got)
	}
	write(`{"projects": {"/a/two": {"history": [1, 2]}, "/b": {}}}`)
	if got := KnownProjects(file); !slices.Equal(got, []string{"/a/two", "/b"}) {
		t.Fatalf("after a longer rewrite: got %q", got)
	}
	write(`{"projects": `)
	if got := KnownProjects(file); got != nil {
		t.Fatalf("a file that does not parse gave %q, want none", got)
	}
}
