package gitsync

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/chronicle-dev/chronicle/engine/gitskill"
)

// clone makes the checkout: a full clone (the ancestry checks of later
// syncs need history) into a staging folder beside o.Dir, renamed into
// place once complete. An existing o.Dir (empty, or a checkout being
// replaced) is removed only then.
func clone(ctx context.Context, o SyncOptions) (*SyncResult, error) {
	if err := gitskill.CheckURL(o.URL); err != nil {
		return nil, err
	}
	sys := o.sys()
	parent := filepath.Dir(o.Dir)
	if err := sys.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	stage, err := sys.MkdirTemp(parent, "."+filepath.Base(o.Dir)+".clone-")
	if err != nil {
		return nil, err
	}
	defer sys.RemoveAll(stage)
	opts := &git.CloneOptions{URL: o.URL, Auth: gitskill.Auth(o.Auth)}
	if o.Ref != "" {
		opts.ReferenceName = plumbing.NewBranchReferenceName(o.Ref)
	}
	if o.Progress != nil {
		opts.Progress = o.Progress
	}
	repo, err := git.PlainCloneContext(ctx, stage, false, opts)
	if err != nil {
		if err == plumbing.ErrReferenceNotFound {
			return nil, missingBranch(ctx, o)
		}
		return nil, gitskill.RemoteError(o.URL, o.Auth != "", TokenHint, err)
	}
	head, err := repo.Head()
	if err != nil {
		return nil, fmt.Errorf("%s: reading the cloned HEAD: %w", o.URL, err)
	}
	if err := sys.InheritOwnerTree(stage); err != nil {
		return nil, fmt.Errorf("the clone of %s: %w", o.URL, err)
	}
	if err := sys.RemoveAll(o.Dir); err != nil {
		return nil, err
	}
	if err := sys.Rename(stage, o.Dir); err != nil {
		return nil, fmt.Errorf("moving the clone of %s to %s: %w", o.URL, o.Dir, err)
	}
	return &SyncResult{URL: o.URL, Ref: head.Name().Short(), NewSHA: head.Hash().String(), Cloned: true}, nil
}

// TokenHint says how sync is given a token for a private repository.
const TokenHint = "chronicle sync --token-env NAME, with the token in the variable NAME"

// missingBranch explains a clone that found no branch to check out: the
// one given with --ref, or the one the remote's HEAD names (a repository
// whose default branch was deleted or never pushed). It lists the branches
// there are, so that the --ref it suggests can be copied.
func missingBranch(ctx context.Context, o SyncOptions) error {
	remote := git.NewRemote(memory.NewStorage(), &gitconfig.RemoteConfig{Name: "origin", URLs: []string{o.URL}})
	list, err := remote.ListContext(ctx, &git.ListOptions{Auth: gitskill.Auth(o.Auth)})
	if err != nil {
		return gitskill.RemoteError(o.URL, o.Auth != "", TokenHint, err)
	}
	var branches []string
	head := ""
	for _, r := range list {
		switch {
		case r.Name() == plumbing.HEAD && r.Type() == plumbing.SymbolicReference:
			head = r.Target().Short()
		case r.Name().IsBranch():
			branches = append(branches, r.Name().Short())
		}
	}
	what := fmt.Sprintf("%s: there is no branch named %q", o.URL, o.Ref)
	if o.Ref == "" {
		what = fmt.Sprintf("%s: the repository's HEAD names no branch that exists", o.URL)
		if head != "" {
			what = fmt.Sprintf("%s: the repository's HEAD names the branch %q, which does not exist", o.URL, head)
		}
	}
	// The remote lists its references in no fixed order: sorted, the
	// message (and the --ref it suggests) is the same every time.
	slices.Sort(branches)
	if len(branches) == 0 {
		return fmt.Errorf("%s, and the repository has no branches: push one first", what)
	}
	return fmt.Errorf("%s; give the branch to follow with --ref (chronicle sync --repo %s --ref %s); its branches: %s", what, o.URL, branches[0], strings.Join(branches, ", "))
}
