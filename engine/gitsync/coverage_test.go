package gitsync_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitsync"
)

// TestSyncRefusesToSwitchOverLocalBranchCommits: switching to a branch
// whose local copy holds commits its remote branch lacks is refused,
// naming the branch; switching back to a branch the remote still contains
// works.
func TestSyncRefusesToSwitchOverLocalBranchCommits(t *testing.T) {
	_, repo, v1 := configRepo(t)
	repo.Branch("laptop")
	repo.Write("laptop.hcl", "# laptop\n")
	repo.Commit("laptop")
	repo.Switch("main")
	repo.Push()
	dir := filepath.Join(t.TempDir(), "source")
	mustSync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL()})
	mustSync(t, gitsync.SyncOptions{Dir: dir, Ref: "laptop"})

	// Back to main: its local branch is contained in origin/main.
	res := mustSync(t, gitsync.SyncOptions{Dir: dir, Ref: "main"})
	if res.Ref != "main" || res.NewSHA != v1 {
		t.Fatalf("back to main = %+v, want main at %s", *res, v1)
	}
	if _, err := os.Stat(filepath.Join(dir, "laptop.hcl")); !os.IsNotExist(err) {
		t.Errorf("main's checkout has laptop.hcl: %v", err)
	}

	// The local main gets a commit origin/main lacks: switching to it is
	// refused, and HEAD stays where it was.
	mustSync(t, gitsync.SyncOptions{Dir: dir, Ref: "laptop"})
	r := open(t, dir)
	laptop, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	local := commitLocally(t, dir, "local.hcl")
	// The local commit is on laptop: main is moved to it, laptop and
	// the working tree back to origin/laptop's tip.
	if err := r.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("main"), plumbing.NewHash(local))); err != nil {
		t.Fatal(err)
	}
	if err := r.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName("laptop"), laptop.Hash())); err != nil {
		t.Fatal(err)
	}
	w, _ := r.Worktree()
	if err := w.Reset(&git.ResetOptions{Commit: laptop.Hash(), Mode: git.HardReset}); err != nil {
		t.Fatal(err)
	}
	_, err = sync(t, gitsync.SyncOptions{Dir: dir, Ref: "main"})
	wantErr(t, err, dir, "the local branch main has commits that origin/main does not", "refusing to sync over local commits")
	if head := headOf(t, dir); head != laptop.Hash().String() {
		t.Errorf("a refused switch moved HEAD to %s", head)
	}
}

// TestSyncRefusesACheckoutItDidNotMake: a repository without an origin
// remote, or with HEAD detached, is not synced over; the error says what
// to do.
func TestSyncRefusesACheckoutItDidNotMake(t *testing.T) {
	_, repo, v1 := configRepo(t)

	dir := filepath.Join(t.TempDir(), "source")
	mustSync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL()})
	if err := open(t, dir).DeleteRemote("origin"); err != nil {
		t.Fatal(err)
	}
	_, err := sync(t, gitsync.SyncOptions{Dir: dir})
	wantErr(t, err, dir+" has no origin remote", "move it away to sync afresh")

	detached := filepath.Join(t.TempDir(), "source")
	mustSync(t, gitsync.SyncOptions{Dir: detached, URL: repo.URL()})
	r := open(t, detached)
	if err := r.Storer.SetReference(plumbing.NewHashReference(plumbing.HEAD, plumbing.NewHash(v1))); err != nil {
		t.Fatal(err)
	}
	_, err = sync(t, gitsync.SyncOptions{Dir: detached})
	wantErr(t, err, detached, "HEAD is detached at "+v1, "git switch main")
}

// TestSyncNamesEveryBranchWhenHEADNamesNone: a remote whose HEAD names a
// branch that does not exist is refused with its branches listed and a
// --ref to copy; a repository with tags and no branch says to push one.
func TestSyncNamesEveryBranchWhenHEADNamesNone(t *testing.T) {
	srv, repo, _ := configRepo(t)
	repo.Branch("laptop")
	repo.Push()
	repo.Git("--git-dir", repo.Bare, "symbolic-ref", "HEAD", "refs/heads/trunk")
	dir := filepath.Join(t.TempDir(), "source")
	_, err := sync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL()})
	wantErr(t, err, repo.URL(), "the repository's HEAD names no branch that exists", "--ref laptop", "its branches: laptop, main")

	tagged := srv.Repo(t, "tagged")
	tagged.Write("main.hcl", "# v1\n")
	tagged.Commit("v1")
	tagged.Tag("v1")
	tagged.Git("push", "--quiet", "origin", "--tags")
	_, err = sync(t, gitsync.SyncOptions{Dir: dir, URL: tagged.URL(), Ref: "main"})
	wantErr(t, err, tagged.URL(), `there is no branch named "main"`, "has no branches: push one first")
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("refused syncs left %s behind: %v", dir, err)
	}
}

// TestSyncNamesTenDirtyFilesAndCountsTheRest: the dirty-tree refusal names
// the first ten files and counts the others.
func TestSyncNamesTenDirtyFilesAndCountsTheRest(t *testing.T) {
	dir := syncedBehind(t)
	for i := range 12 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("new%02d.hcl", i)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := sync(t, gitsync.SyncOptions{Dir: dir})
	wantErr(t, err, "new00.hcl", "new09.hcl", "and 2 more", "refusing to sync over a dirty tree")
}

// TestSyncClonesThroughItsSystem: the staging folder of a clone is made,
// moved and removed through the System given; a move that fails leaves
// neither the checkout nor the staging folder, and says which move.
func TestSyncClonesThroughItsSystem(t *testing.T) {
	_, repo, _ := configRepo(t)
	parent := t.TempDir()
	dir := filepath.Join(parent, "source")
	rec := &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		if op.Name == "Rename" {
			return errors.New("disk full")
		}
		return nil
	}}
	_, err := sync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL(), System: rec})
	wantErr(t, err, "moving the clone of "+repo.URL()+" to "+dir, "disk full")
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("a failed clone left %v in %s", left, parent)
	}
	// The clone was staged beside the checkout and moved through the
	// System: nothing of it went around the seam.
	var renamed bool
	for _, op := range rec.Ops() {
		if op.Name == "Rename" {
			renamed = op.To == dir && filepath.Dir(op.Path) == parent
		}
	}
	if !renamed {
		t.Errorf("no move of a staged clone to %s through the System: %+v", dir, rec.Ops())
	}
	// The same through a System that lets it: the checkout is there.
	res := mustSync(t, gitsync.SyncOptions{Dir: dir, URL: repo.URL(), System: &fsys.Recorder{System: fsys.OS{}}})
	if !res.Cloned {
		t.Fatalf("sync = %+v", *res)
	}
	read(t, filepath.Join(dir, "main.hcl"))
}
