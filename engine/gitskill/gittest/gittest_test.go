package gittest

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// client runs the git binary as a test's subprocess would: its own empty
// home, trusting the server's certificate (SSL_CERT_FILE, and
// GIT_SSL_CAINFO for git's own TLS library).
func client(t *testing.T, srv *Server, dir string, args ...string) (string, error) {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
		"GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"), "SSL_CERT_FILE="+srv.CertFile, "GIT_SSL_CAINFO="+srv.CertFile)
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// What a test writes, commits, tags and pushes is what a git client
// cloning over HTTPS gets: files, links, removals, both kinds of tag.
func TestServerServesWhatTheRepoPushed(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	srv := NewServer(t)
	repo := srv.Repo(t, "skills")
	if !strings.HasPrefix(repo.URL(), "https://127.0.0.1:") || !strings.HasSuffix(repo.URL(), "/skills.git") {
		t.Fatalf("URL = %s", repo.URL())
	}
	repo.Write("pdf/SKILL.md", "v1\n")
	repo.Write("old.md", "going\n")
	repo.Symlink("pdf/ref", "SKILL.md")
	first := repo.Commit("v1")
	repo.Tag("v1")
	repo.Remove("old.md")
	second := repo.Commit("v2")
	repo.AnnotatedTag("v2", "second")
	repo.Branch("laptop")
	repo.Switch("main")
	repo.Push()
	if first == second || len(second) != 40 {
		t.Fatalf("commits %s %s", first, second)
	}

	work := t.TempDir()
	if out, err := client(t, srv, work, "clone", "--quiet", repo.URL(), "c"); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	c := filepath.Join(work, "c")
	if b, _ := os.ReadFile(filepath.Join(c, "pdf", "SKILL.md")); string(b) != "v1\n" {
		t.Errorf("SKILL.md = %q", b)
	}
	if target, err := os.Readlink(filepath.Join(c, "pdf", "ref")); err != nil || target != "SKILL.md" {
		t.Errorf("the link: %q, %v", target, err)
	}
	if _, err := os.Stat(filepath.Join(c, "old.md")); !os.IsNotExist(err) {
		t.Errorf("a removed file is there: %v", err)
	}
	refs, err := client(t, srv, c, "ls-remote", "origin")
	if err != nil {
		t.Fatalf("git ls-remote: %v\n%s", err, refs)
	}
	for _, want := range []string{"refs/heads/main", "refs/heads/laptop", "refs/tags/v1", "refs/tags/v2^{}"} {
		if !strings.Contains(refs, want) {
			t.Errorf("ls-remote lacks %s:\n%s", want, refs)
		}
	}
	// Plumbing through stdin: a blob written by hash-object.
	if sha := repo.GitInput("blob\n", "hash-object", "-w", "--stdin"); len(sha) != 40 {
		t.Errorf("hash-object = %q", sha)
	}
	repo.AllowFetchBySHA()
	if got := srv.env.run(t, repo.Bare, "config", "uploadpack.allowReachableSHA1InWant"); got != "true" {
		t.Errorf("uploadpack.allowReachableSHA1InWant = %q", got)
	}
}

// A private repository answers only requests carrying its token.
func TestRequireToken(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	srv := NewServer(t)
	repo := srv.Repo(t, "private")
	repo.Write("a.md", "a\n")
	repo.Commit("a")
	repo.Push()
	srv.RequireToken("private", "tok-right")
	dir := t.TempDir()
	if out, err := client(t, srv, dir, "ls-remote", repo.URL()); err == nil || !strings.Contains(out, "terminal prompts disabled") {
		t.Fatalf("ls-remote without a token: %v\n%s", err, out)
	}
	withToken := strings.Replace(repo.URL(), "https://", "https://x:tok-wrong@", 1)
	if out, err := client(t, srv, dir, "ls-remote", withToken); err == nil || !strings.Contains(out, "Authentication failed") {
		t.Fatalf("ls-remote with the wrong token: %v\n%s", err, out)
	}
	withToken = strings.Replace(repo.URL(), "https://", "https://x:tok-right@", 1)
	if out, err := client(t, srv, dir, "ls-remote", withToken); err != nil || !strings.Contains(out, "refs/heads/main") {
		t.Fatalf("ls-remote with the token: %v\n%s", err, out)
	}
}

// A stalled repository holds a pack transfer until its client gives up,
// telling the test once it holds it.
func TestStall(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	srv := NewServer(t)
	repo := srv.Repo(t, "slow")
	repo.Write("a.md", "a\n")
	repo.Commit("a")
	repo.Push()
	held := srv.Stall("slow")
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, repo.URL()+"/git-upload-pack", bytes.NewReader(nil))
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	select {
	case <-held:
	case <-t.Context().Done():
		t.Fatal("the pack transfer was never held")
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a held transfer was answered")
	}
	// Other requests are answered: the advertisement of refs is a GET.
	resp, err := http.Get(repo.URL() + "/info/refs?service=git-upload-pack")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("info/refs: %s", resp.Status)
	}
}
