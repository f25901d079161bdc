package gitsync_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
	"github.com/chronicle-dev/chronicle/engine/gitsync"
)

func TestMain(m *testing.M) { gittest.Main(m) }

// configRepo serves a config repository with main.hcl and old.hcl on main.
func configRepo(t *testing.T) (*gittest.Server, *gittest.Repo, string) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "config")
	repo.Write("main.hcl", "# v1\n")
	repo.Write("old.hcl", "# going away\n")
	repo.Write(".gitignore", "*.log\n")
	sha := repo.Commit("v1")
	repo.Push()
	return srv, repo, sha
}

// syncedBehind returns a checkout synced at v1 of a config repository
// whose main has since moved on to v2.
func syncedBehind(t *testing.T) string {
	_, repo, _ := configRepo(t)
	dir := filepath.Join(t.TempDir(), "source")
	mustSync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL()})
	repo.Write("main.hcl", "# v2\n")
	repo.Commit("v2")
	repo.Push()
	return dir
}

func sync(t *testing.T, o gitsync.SyncOptions) (*gitsync.SyncResult, error) {
	t.Helper()
	return gitsync.Sync(t.Context(), o)
}

func mustSync(t *testing.T, o gitsync.SyncOptions) *gitsync.SyncResult {
	t.Helper()
	res, err := sync(t, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantErr fails unless err mentions every want.
func wantErr(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want an error mentioning %q", want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	t.Log(err)
}

func TestSyncClonesThenFastForwards(t *testing.T) {
	_, repo, v1 := configRepo(t)
	dir := filepath.Join(t.TempDir(), "source")

	start := time.Now()
	res := mustSync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL()})
	t.Logf("first sync took %v", time.Since(start))
	want := gitsync.SyncResult{URL: repo.URL(), Ref: "main", NewSHA: v1, Cloned: true}
	if *res != want {
		t.Fatalf("first sync = %+v, want %+v", *res, want)
	}
	if got := read(t, filepath.Join(dir, "main.hcl")); got != "# v1\n" {
		t.Errorf("main.hcl = %q", got)
	}

	repo.Write("main.hcl", "# v2\n")
	repo.Write("new/extra.hcl", "# new\n")
	repo.Remove("old.hcl")
	v2 := repo.Commit("v2")
	repo.Push()
	os.WriteFile(filepath.Join(dir, "debug.log"), []byte("ignored"), 0o644)

	res = mustSync(t, gitsync.SyncOptions{Dir: dir}) // the URL is remembered
	want = gitsync.SyncResult{URL: repo.URL(), Ref: "main", OldSHA: v1, NewSHA: v2}
	if *res != want || !res.Changed() {
		t.Fatalf("second sync = %+v, want %+v", *res, want)
	}
	if got := read(t, filepath.Join(dir, "main.hcl")); got != "# v2\n" {
		t.Errorf("main.hcl = %q after the fast-forward", got)
	}
	if got := read(t, filepath.Join(dir, "new", "extra.hcl")); got != "# new\n" {
		t.Errorf("new/extra.hcl = %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "old.hcl")); !os.IsNotExist(err) {
		t.Errorf("old.hcl survived its deletion upstream: %v", err)
	}

	res = mustSync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL()})
	if res.Changed() || res.NewSHA != v2 {
		t.Errorf("an idle sync = %+v, want no change at %s", *res, v2)
	}
}

func TestSyncRefusesADirtyTree(t *testing.T) {
	dir := syncedBehind(t)

	os.WriteFile(filepath.Join(dir, "main.hcl"), []byte("# edited here\n"), 0o644)
	_, err := sync(t, gitsync.SyncOptions{Dir: dir})
	wantErr(t, err, dir, "main.hcl", "dirty tree")
	if got := read(t, filepath.Join(dir, "main.hcl")); got != "# edited here\n" {
		t.Errorf("the refused sync changed main.hcl to %q", got)
	}

	os.WriteFile(filepath.Join(dir, "main.hcl"), []byte("# v1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "untracked.hcl"), []byte("# mine\n"), 0o644)
	_, err = sync(t, gitsync.SyncOptions{Dir: dir})
	wantErr(t, err, "untracked.hcl", "dirty tree")
}

func TestSyncRefusesLocalCommits(t *testing.T) {
	dir := syncedBehind(t)

	local := commitLocally(t, dir, "local.hcl")
	_, err := sync(t, gitsync.SyncOptions{Dir: dir})
	wantErr(t, err, dir, "local commits", "origin/main")
	if head := headOf(t, dir); head != local {
		t.Errorf("HEAD moved to %s after a refused sync", head)
	}
}

func TestSyncRefusesARewrittenRemote(t *testing.T) {
	_, repo, _ := configRepo(t)
	dir := filepath.Join(t.TempDir(), "source")
	mustSync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL()})
	repo.Write("main.hcl", "# rewritten\n")
	repo.Git("commit", "--quiet", "--all", "--amend", "-m", "rewritten")
	repo.Push()
	_, err := sync(t, gitsync.SyncOptions{Dir: dir})
	wantErr(t, err, "rewritten")
}

func TestSyncSwitchesBranch(t *testing.T) {
	_, repo, _ := configRepo(t)
	repo.Branch("laptop")
	repo.Write("laptop.hcl", "# laptop\n")
	laptop := repo.Commit("laptop")
	repo.Switch("main")
	repo.Push()
	dir := filepath.Join(t.TempDir(), "source")
	mustSync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL()})

	res := mustSync(t, gitsync.SyncOptions{Dir: dir, Ref: "laptop"})
	if res.Ref != "laptop" || res.NewSHA != laptop {
		t.Fatalf("switch = %+v, want laptop at %s", *res, laptop)
	}
	read(t, filepath.Join(dir, "laptop.hcl"))
	res = mustSync(t, gitsync.SyncOptions{Dir: dir}) // the branch is remembered
	if res.Ref != "laptop" || res.Changed() {
		t.Errorf("the next sync = %+v, want laptop unchanged", *res)
	}
	_, err := sync(t, gitsync.SyncOptions{Dir: dir, Ref: "nope"})
	wantErr(t, err, repo.URL(), "nope")
}

func TestSyncChangingURL(t *testing.T) {
	srv, repo, _ := configRepo(t)
	other := srv.Repo(t, "other")
	other.Write("other.hcl", "# other\n")
	otherSHA := other.Commit("other")
	other.Push()
	dir := filepath.Join(t.TempDir(), "source")
	mustSync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL()})

	_, err := sync(t, gitsync.SyncOptions{Dir: dir, URL: other.URL()})
	wantErr(t, err, repo.URL(), other.URL(), "reset")

	commitLocally(t, dir, "local.hcl")
	_, err = sync(t, gitsync.SyncOptions{Dir: dir, URL: other.URL(), Reset: true})
	wantErr(t, err, "local commits")

	dir2 := filepath.Join(t.TempDir(), "source")
	mustSync(t, gitsync.SyncOptions{Dir: dir2, URL: repo.URL()})
	res := mustSync(t, gitsync.SyncOptions{Dir: dir2, URL: other.URL(), Reset: true})
	if !res.Cloned || res.NewSHA != otherSHA || res.URL != other.URL() {
		t.Fatalf("reset = %+v", *res)
	}
	read(t, filepath.Join(dir2, "other.hcl"))
	if _, err := os.Stat(filepath.Join(dir2, "main.hcl")); !os.IsNotExist(err) {
		t.Errorf("the replaced checkout left main.hcl: %v", err)
	}
}

func TestSyncRefusals(t *testing.T) {
	_, repo, _ := configRepo(t)
	notRepo := t.TempDir()
	os.WriteFile(filepath.Join(notRepo, "mine.txt"), []byte("x"), 0o644)
	fresh := filepath.Join(t.TempDir(), "source")
	for _, tt := range []struct {
		o    gitsync.SyncOptions
		want string
	}{
		{gitsync.SyncOptions{Dir: fresh, URL: "http://example.com/config.git"}, "refusing git remote"},
		{gitsync.SyncOptions{Dir: fresh, URL: "https://me:hunter2@example.com/config.git"}, "credentials"},
		{gitsync.SyncOptions{Dir: fresh}, "give the repository URL"},
		{gitsync.SyncOptions{Dir: notRepo, URL: repo.URL()}, "not a git repository"},
		{gitsync.SyncOptions{Dir: fresh, URL: repo.URL(), Ref: "nope"}, "nope"},
	} {
		_, err := sync(t, tt.o)
		wantErr(t, err, tt.want)
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("the error repeats the credentials: %v", err)
		}
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("refused syncs left %s behind: %v", fresh, err)
	}
}

func TestSyncPrivateRepository(t *testing.T) {
	srv, repo, v1 := configRepo(t)
	srv.RequireToken("config", "tok-right")
	dir := filepath.Join(t.TempDir(), "source")
	_, err := sync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL(), Auth: "tok-wrong"})
	wantErr(t, err, repo.URL(), "token was refused")
	res := mustSync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL(), Auth: "tok-right"})
	if res.NewSHA != v1 {
		t.Errorf("NewSHA = %s, want %s", res.NewSHA, v1)
	}
	_, err = sync(t, gitsync.SyncOptions{Dir: dir})
	wantErr(t, err, repo.URL(), "needs authentication")
	mustSync(t, gitsync.SyncOptions{Dir: dir, Auth: "tok-right"})
}

// commitLocally commits a new file in the checkout with go-git and
// returns the commit's SHA.
func commitLocally(t *testing.T, dir, name string) string {
	t.Helper()
	w, err := open(t, dir).Worktree()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, name), []byte("# local\n"), 0o644)
	if _, err := w.Add(name); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "me", Email: "me@example.invalid", When: time.Now()}
	h, err := w.Commit("local", &git.CommitOptions{Author: sig})
	if err != nil {
		t.Fatal(err)
	}
	return h.String()
}

func headOf(t *testing.T, dir string) string {
	t.Helper()
	head, err := open(t, dir).Head()
	if err != nil {
		t.Fatal(err)
	}
	return head.Hash().String()
}

func open(t *testing.T, dir string) *git.Repository {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	return repo
}
