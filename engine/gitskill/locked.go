package gitskill

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
)

// cloneLocked fetches the commit sha alone, at depth 1, into the new bare
// repository dir, as a lock file's entry asks. Servers serve a commit by
// SHA only when they allow it (uploadpack.allowReachableSHA1InWant, which
// GitHub and GitLab do); otherwise, or when the shallow fetch fails for any
// reason but authentication or cancellation, the repository is cloned
// whole and note says so.
func cloneLocked(ctx context.Context, dir, url, sha, auth string, progress io.Writer) (*git.Repository, *object.Commit, string, error) {
	if !IsCommitSHA(sha) {
		return nil, nil, "", fmt.Errorf("%s: the locked commit %q is not a full commit SHA", url, sha)
	}
	sha = strings.ToLower(sha)
	repo, commit, err := fetchSHA(ctx, dir, url, sha, auth, progress)
	if err == nil {
		return repo, commit, "", nil
	}
	if ctx.Err() != nil || errors.Is(err, transport.ErrAuthenticationRequired) || errors.Is(err, transport.ErrAuthorizationFailed) {
		return nil, nil, "", RemoteError(url, auth != "", AuthHint, err)
	}
	why := "the server does not serve a commit by its SHA"
	if !errors.Is(err, git.ErrExactSHA1NotSupported) {
		why = "fetching it by SHA failed: " + trimmed{err}.Error()
	}
	// The whole clone goes beside the failed fetch: both are in the
	// fetch's temporary folder, which Fetched.Cleanup removes.
	repo, commit, err = cloneCommit(ctx, dir+".full", url, sha, auth, progress)
	if err != nil {
		return nil, nil, "", err
	}
	return repo, commit, fmt.Sprintf("%s: %s, so the whole repository was cloned to take the locked commit %s", url, why, sha[:12]), nil
}

// fetchSHA fetches sha at depth 1 into a new bare repository at dir.
func fetchSHA(ctx context.Context, dir, url, sha, auth string, progress io.Writer) (*git.Repository, *object.Commit, error) {
	repo, err := git.PlainInit(dir, true)
	if err != nil {
		return nil, nil, err
	}
	remote, err := repo.CreateRemote(&gitconfig.RemoteConfig{Name: "origin", URLs: []string{url}})
	if err != nil {
		return nil, nil, err
	}
	opts := &git.FetchOptions{
		RemoteName: "origin",
		RefSpecs:   []gitconfig.RefSpec{gitconfig.RefSpec(sha + ":refs/heads/locked")},
		Depth:      1,
		Tags:       git.NoTags,
		Auth:       Auth(auth),
	}
	if progress != nil {
		opts.Progress = progress
	}
	if err := remote.FetchContext(ctx, opts); err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return nil, nil, err
	}
	commit, err := peel(repo, plumbing.NewHash(sha))
	if err != nil {
		return nil, nil, err
	}
	return repo, commit, nil
}
