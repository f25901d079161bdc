package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"

	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/safefile"
)

// clone makes the checkout: a full clone (the ancestry checks of later
// syncs need history) into a staging folder beside o.Dir, renamed into
// place once complete. An existing o.Dir (empty, or a checkout being
// replaced) is removed only then.
func clone(ctx context.Context, o SyncOptions) (*SyncResult, error) {
	if err := gitskill.CheckURL(o.URL); err != nil {
		return nil, err
	}
	parent := filepath.Dir(o.Dir)
	if err := safefile.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	stage, err := safefile.MkdirTemp(parent, "."+filepath.Base(o.Dir)+".clone-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	opts := &git.CloneOptions{URL: o.URL, Auth: gitskill.Auth(o.Auth)}
	if o.Ref != "" {
		opts.ReferenceName = plumbing.NewBranchReferenceName(o.Ref)
	}
	if o.Progress != nil {
		opts.Progress = o.Progress
	}
	repo, err := git.PlainCloneContext(ctx, stage, false, opts)
	if err != nil {
		if o.Ref != "" && err == plumbing.ErrReferenceNotFound {
			return nil, fmt.Errorf("%s: no branch named %q", o.URL, o.Ref)
		}
		return nil, gitskill.RemoteError(o.URL, o.Auth != "", err)
	}
	head, err := repo.Head()
	if err != nil {
		return nil, fmt.Errorf("%s: reading the cloned HEAD: %w", o.URL, err)
	}
	if err := safefile.InheritOwnerTree(stage); err != nil {
		return nil, fmt.Errorf("the clone of %s: %w", o.URL, err)
	}
	if err := os.RemoveAll(o.Dir); err != nil {
		return nil, err
	}
	if err := os.Rename(stage, o.Dir); err != nil {
		return nil, fmt.Errorf("moving the clone of %s to %s: %w", o.URL, o.Dir, err)
	}
	return &SyncResult{URL: o.URL, Ref: head.Name().Short(), NewSHA: head.Hash().String(), Cloned: true}, nil
}
