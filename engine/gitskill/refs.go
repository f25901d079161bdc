package gitskill

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/storage/memory"
)

// IsCommitSHA reports whether ref is a full 40-hex commit SHA, which pins a
// skill to one commit.
func IsCommitSHA(ref string) bool {
	if len(ref) != 40 {
		return false
	}
	for _, c := range ref {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// RemoteSHA returns the commit that ref (a branch or tag; empty for the
// remote's HEAD) names on the remote at url, by listing the remote's refs
// without cloning. A full commit SHA is returned as is: it is pinned. For
// an annotated tag it returns the peeled commit that the listing
// advertises (every git server does); were the peeled entry missing, it
// would return the tag object's SHA, which then differs from the commit
// Fetch records.
func RemoteSHA(ctx context.Context, url, ref, auth string) (string, error) {
	if err := CheckURL(url); err != nil {
		return "", err
	}
	if IsCommitSHA(ref) {
		return strings.ToLower(ref), nil
	}
	refs, err := listRefs(ctx, url, auth)
	if err != nil {
		return "", err
	}
	_, sha, err := refs.resolve(url, ref)
	return sha, err
}

// remoteRefs maps the names a remote advertises (refs/heads/x,
// refs/tags/v1, refs/tags/v1^{}, HEAD) to their hashes; HEAD's branch, when
// the remote says it, is kept apart.
type remoteRefs struct {
	hashes map[string]string
	head   plumbing.ReferenceName
}

func listRefs(ctx context.Context, url, auth string) (remoteRefs, error) {
	remote := git.NewRemote(memory.NewStorage(), &gitconfig.RemoteConfig{Name: "origin", URLs: []string{url}})
	list, err := remote.ListContext(ctx, &git.ListOptions{Auth: Auth(auth), PeelingOption: git.AppendPeeled})
	if err != nil {
		return remoteRefs{}, RemoteError(url, auth != "", AuthHint, err)
	}
	refs := remoteRefs{hashes: map[string]string{}}
	for _, r := range list {
		if r.Type() == plumbing.SymbolicReference {
			if r.Name() == plumbing.HEAD {
				refs.head = r.Target()
			}
			continue
		}
		refs.hashes[r.Name().String()] = r.Hash().String()
	}
	return refs, nil
}

// resolve finds ref among the remote's refs, branches before tags as git
// clone --branch does, and returns its full name and commit SHA (peeled for
// an annotated tag). An empty ref is the remote's HEAD branch.
func (r remoteRefs) resolve(url, ref string) (plumbing.ReferenceName, string, error) {
	var candidates []plumbing.ReferenceName
	switch {
	case ref == "" && r.head != "":
		candidates = []plumbing.ReferenceName{r.head}
	case ref == "":
		if sha, ok := r.hashes["HEAD"]; ok {
			return plumbing.HEAD, sha, nil
		}
		return "", "", fmt.Errorf("%s: the remote advertises no HEAD: set ref to a branch or tag", url)
	case strings.HasPrefix(ref, "refs/"):
		candidates = []plumbing.ReferenceName{plumbing.ReferenceName(ref)}
	default:
		candidates = []plumbing.ReferenceName{plumbing.NewBranchReferenceName(ref), plumbing.NewTagReferenceName(ref)}
	}
	for _, name := range candidates {
		if sha, ok := r.hashes[name.String()+"^{}"]; ok {
			return name, sha, nil
		}
		if sha, ok := r.hashes[name.String()]; ok {
			return name, sha, nil
		}
	}
	return "", "", fmt.Errorf("%s: no branch or tag named %q (branches: %s)", url, ref, strings.Join(r.branches(), ", "))
}

// branches lists the remote's branch names for error messages.
func (r remoteRefs) branches() []string {
	var names []string
	for name := range r.hashes {
		if n := plumbing.ReferenceName(name); n.IsBranch() {
			names = append(names, n.Short())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return []string{"none"}
	}
	return names
}
