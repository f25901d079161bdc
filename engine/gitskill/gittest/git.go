package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitEnv is the environment of every git command: the user's own HOME and
// git configuration are replaced by empty temporary ones.
type gitEnv struct {
	home string
}

func newGitEnv(t testing.TB) gitEnv {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("gittest needs the git binary: install git (apt-get install git)")
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return gitEnv{home: home}
}

// environ returns the process environment with git's configuration
// sources pointed at the temporary home.
func (e gitEnv) environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+e.home,
		"XDG_CONFIG_HOME="+filepath.Join(e.home, ".config"),
		"GIT_CONFIG_GLOBAL="+filepath.Join(e.home, ".gitconfig"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
	)
}

// run runs git in dir and returns its trimmed standard output; a failure
// fails the test with git's output.
func (e gitEnv) run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return e.runInput(t, dir, "", args...)
}

// runInput is run with stdin.
func (e gitEnv) runInput(t testing.TB, dir, stdin string, args ...string) string {
	t.Helper()
	full := append([]string{
		"-c", "user.name=gittest",
		"-c", "user.email=gittest@example.invalid",
		"-c", "init.defaultBranch=main",
		"-c", "commit.gpgsign=false",
		"-c", "tag.gpgsign=false",
		"-c", "core.symlinks=true",
	}, args...)
	cmd := exec.Command("git", full...)
	cmd.Dir = dir
	cmd.Env = e.environ()
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}
