package gitstatus

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/internal/testpeer"
)

// The statuses read as the plan prints them.
func TestStatusString(t *testing.T) {
	for s, want := range map[Status]string{
		Outside: "outside any git work tree", Tracked: "tracked by git", Ignored: "ignored by git", Untracked: "not ignored by git",
	} {
		if got := s.String(); got != want {
			t.Errorf("%d: %q, want %q", s, got, want)
		}
	}
}

// The global excludes file is found where git looks for it: the
// core.excludesFile of ~/.gitconfig (~/ meaning the home), else
// $XDG_CONFIG_HOME/git/ignore, else ~/.config/git/ignore.
func TestGlobalExcludesFile(t *testing.T) {
	gitBin := testpeer.Bin(t, "git", "apt-get install git")
	repo := filepath.Join(t.TempDir(), "project")
	if out, err := exec.Command(gitBin, "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(repo, ".gemini", "settings.json")
	for _, tc := range []struct {
		name  string
		setup func(home, xdg string)
		want  Status
	}{
		{"none", func(home, xdg string) {}, Untracked},
		{"~/.config/git/ignore", func(home, xdg string) { write(filepath.Join(home, ".config", "git", "ignore"), ".gemini/\n") }, Ignored},
		{"$XDG_CONFIG_HOME/git/ignore", func(home, xdg string) {
			t.Setenv("XDG_CONFIG_HOME", xdg)
			write(filepath.Join(xdg, "git", "ignore"), "# mine\n\n.gemini/\n")
		}, Ignored},
		{"core.excludesFile under ~/", func(home, xdg string) {
			write(filepath.Join(home, ".gitconfig"), "[core]\n\texcludesFile = ~/my-ignore\n")
			write(filepath.Join(home, "my-ignore"), ".gemini/\n")
		}, Ignored},
		{"an unreadable ~/.gitconfig counts as none", func(home, xdg string) {
			write(filepath.Join(home, ".gitconfig"), "[core\n")
			write(filepath.Join(home, ".config", "git", "ignore"), ".gemini/\n")
		}, Ignored},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			tc.setup(home, filepath.Join(t.TempDir(), "xdg"))
			if got, err := Of(file); err != nil || got != tc.want {
				t.Fatalf("Of(%s) = %s, %v; want %s", file, got, err, tc.want)
			}
		})
	}
}

// A bare repository has no work tree: its files are outside any.
func TestBareRepositoryIsOutside(t *testing.T) {
	gitBin := testpeer.Bin(t, "git", "apt-get install git")
	t.Setenv("HOME", t.TempDir())
	bare := filepath.Join(t.TempDir(), "config.git")
	if out, err := exec.Command(gitBin, "init", "-q", "--bare", bare).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v\n%s", err, out)
	}
	if got, err := Of(filepath.Join(bare, "config")); err != nil || got != Outside {
		t.Fatalf("a bare repository's file: %s, %v", got, err)
	}
}
