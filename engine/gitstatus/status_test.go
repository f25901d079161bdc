package gitstatus

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// TestOfAgreesWithGit builds a real repository with the git binary — a
// tracked file that an ignore rule matches, files ignored by the root's
// .gitignore, a nested .gitignore, info/exclude and the global excludes
// file, a negation — and checks that Of says what `git ls-files` and
// `git check-ignore` say of each file.
func TestOfAgreesWithGit(t *testing.T) {
	gitBin := testpeer.Bin(t, "git", "apt-get install git")
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	repo := filepath.Join(t.TempDir(), "project")
	run := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(gitBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(repo, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	run(repo, "init", "-q")
	write(".mcp.json", "{}")
	write(".cursor/mcp.json", "{}")
	write("committed.json", "{}")
	run(repo, "add", ".mcp.json", "committed.json")
	run(repo, "commit", "-q", "-m", "init")
	write(".gitignore", "# local files\n.cursor/\ncommitted.json\n*.local.json\n!keep.local.json\n")
	write("sub/.gitignore", "settings.json\n")
	write(".git/info/exclude", ".vscode/\n")
	write(filepath.Join("..", "global-ignore"), ".gemini/\n")
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[core]\n\texcludesFile = "+filepath.Join(filepath.Dir(repo), "global-ignore")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	seen := map[Status]int{}
	for _, rel := range []string{
		".mcp.json", ".cursor/mcp.json", "committed.json", "a.local.json", "keep.local.json",
		"sub/settings.json", "settings.json", ".vscode/mcp.json", ".gemini/settings.json", "new/dir/opencode.json",
	} {
		want := Untracked
		switch {
		case run(repo, "ls-files", "--", rel) != "":
			want = Tracked
		case checkIgnored(gitBin, repo, rel):
			want = Ignored
		}
		got, err := Of(filepath.Join(repo, rel))
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if got != want {
			t.Errorf("%s: %s, git says %s", rel, got, want)
		}
		seen[want]++
	}
	if seen[Tracked] != 2 || seen[Ignored] != 5 || seen[Untracked] != 3 {
		t.Errorf("the repository does not hold the cases it should: %v", seen)
	}
	if s, err := Of(filepath.Join(t.TempDir(), "x", ".mcp.json")); err != nil || s != Outside {
		t.Errorf("a file outside any repository: %s, %v", s, err)
	}
}

// checkIgnored asks git check-ignore, whose exit status says it.
func checkIgnored(gitBin, repo, rel string) bool {
	cmd := exec.Command(gitBin, "check-ignore", "-q", "--no-index", rel)
	cmd.Dir = repo
	return cmd.Run() == nil
}
