package gitsync

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/chronicle-dev/chronicle/engine/gitskill"
)

// update fetches the followed branch (and the checked-out one, when the
// caller switches branches) and fast-forwards the checkout to it.
func (c *checkout) update(ctx context.Context, o SyncOptions) (*SyncResult, error) {
	ref := o.Ref
	if ref == "" {
		ref = c.branch
	}
	if err := c.checkClean(); err != nil {
		return nil, err
	}
	branches := []string{ref}
	if ref != c.branch {
		branches = append(branches, c.branch)
	}
	if err := c.fetch(ctx, o, branches); err != nil {
		return nil, err
	}
	// The checked-out branch must be contained in its own remote branch;
	// when switching, the followed branch's local copy (if any) in its own.
	if err := c.checkContained(c.remoteTip(c.branch), "origin/"+c.branch); err != nil {
		return nil, err
	}
	tip := c.remoteTip(ref)
	if ref != c.branch {
		if err := c.switchBranch(ref, tip); err != nil {
			return nil, err
		}
	}
	w, err := c.repo.Worktree()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.dir, err)
	}
	if err := w.Reset(&git.ResetOptions{Commit: tip, Mode: git.HardReset}); err != nil {
		return nil, fmt.Errorf("%s: moving to %s: %w", c.dir, short(tip), err)
	}
	return &SyncResult{URL: c.url, Ref: ref, OldSHA: c.head.Hash.String(), NewSHA: tip.String()}, nil
}

// fetch brings origin's branches into refs/remotes/origin/.
func (c *checkout) fetch(ctx context.Context, o SyncOptions, branches []string) error {
	var specs []gitconfig.RefSpec
	for _, b := range branches {
		specs = append(specs, gitconfig.RefSpec(fmt.Sprintf("+refs/heads/%s:refs/remotes/origin/%[1]s", b)))
	}
	opts := &git.FetchOptions{RemoteName: "origin", RefSpecs: specs, Auth: gitskill.Auth(o.Auth)}
	if o.Progress != nil {
		opts.Progress = o.Progress
	}
	err := c.repo.FetchContext(ctx, opts)
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
		return nil
	case errors.Is(err, git.NoMatchingRefSpecError{}):
		return fmt.Errorf("%s: %w (is the branch name right?)", c.url, err)
	}
	return gitskill.RemoteError(c.url, o.Auth != "", TokenHint, err)
}

// remoteTip is the fetched tip of a branch; fetch has made sure it exists.
func (c *checkout) remoteTip(branch string) plumbing.Hash {
	ref, err := c.repo.Reference(plumbing.NewRemoteReferenceName("origin", branch), true)
	if err != nil {
		return plumbing.ZeroHash
	}
	return ref.Hash()
}

// switchBranch points HEAD at the local branch ref, made or moved to tip.
// A local branch of that name must not hold commits tip lacks.
func (c *checkout) switchBranch(ref string, tip plumbing.Hash) error {
	name := plumbing.NewBranchReferenceName(ref)
	if local, err := c.repo.Reference(name, true); err == nil {
		other, err := c.repo.CommitObject(local.Hash())
		if err != nil {
			return fmt.Errorf("%s: reading branch %s: %w", c.dir, ref, err)
		}
		tipCommit, err := c.repo.CommitObject(tip)
		if err != nil {
			return fmt.Errorf("%s: reading origin/%s: %w", c.dir, ref, err)
		}
		if ok, err := other.IsAncestor(tipCommit); err != nil || !ok {
			return fmt.Errorf("%s: the local branch %s has commits that origin/%s does not: refusing to sync over local commits", c.dir, ref, ref)
		}
	}
	if err := c.repo.Storer.SetReference(plumbing.NewHashReference(name, tip)); err != nil {
		return fmt.Errorf("%s: %w", c.dir, err)
	}
	if err := c.repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, name)); err != nil {
		return fmt.Errorf("%s: %w", c.dir, err)
	}
	err := c.repo.CreateBranch(&gitconfig.Branch{Name: ref, Remote: "origin", Merge: name})
	if err != nil && !errors.Is(err, git.ErrBranchExists) {
		return fmt.Errorf("%s: %w", c.dir, err)
	}
	return nil
}
