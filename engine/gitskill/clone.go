package gitskill

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// cloneCommit clones url into the bare repository dir and returns the
// commit that ref names. A branch, a tag or the remote's HEAD is cloned
// shallowly (depth 1, that ref only); a full commit SHA needs a full clone,
// since go-git fetches by reference name.
func cloneCommit(ctx context.Context, dir, url, ref, auth string, progress io.Writer) (*git.Repository, *object.Commit, error) {
	opts := &git.CloneOptions{URL: url, Auth: Auth(auth)}
	if progress != nil {
		opts.Progress = progress
	}
	if IsCommitSHA(ref) {
		opts.Tags = git.AllTags
	} else {
		refs, err := listRefs(ctx, url, auth)
		if err != nil {
			return nil, nil, err
		}
		name, _, err := refs.resolve(url, ref)
		if err != nil {
			return nil, nil, err
		}
		opts.ReferenceName, opts.SingleBranch, opts.Depth = name, true, 1
		opts.Tags = git.NoTags
	}
	repo, err := git.PlainCloneContext(ctx, dir, true, opts)
	if err != nil {
		return nil, nil, RemoteError(url, auth != "", AuthHint, err)
	}
	var hash plumbing.Hash
	if IsCommitSHA(ref) {
		hash = plumbing.NewHash(strings.ToLower(ref))
	} else {
		head, err := repo.Head()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: reading the cloned HEAD: %w", url, err)
		}
		hash = head.Hash()
	}
	commit, err := peel(repo, hash)
	if err != nil {
		if IsCommitSHA(ref) {
			return nil, nil, fmt.Errorf("%s: commit %s is not on any branch or tag of the repository: %w", url, ref, err)
		}
		return nil, nil, fmt.Errorf("%s: ref %q: %w", url, ref, err)
	}
	return repo, commit, nil
}

// peel returns the commit hash names, following annotated tags.
func peel(repo *git.Repository, hash plumbing.Hash) (*object.Commit, error) {
	for range 10 {
		obj, err := repo.Object(plumbing.AnyObject, hash)
		if err != nil {
			return nil, err
		}
		switch o := obj.(type) {
		case *object.Commit:
			return o, nil
		case *object.Tag:
			hash = o.Target
		default:
			return nil, fmt.Errorf("%s is a %s, not a commit", hash, obj.Type())
		}
	}
	return nil, fmt.Errorf("%s: too many nested tags", hash)
}
