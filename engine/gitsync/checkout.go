package gitsync

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A checkout is an existing synced repository and what it remembers.
type checkout struct {
	dir    string
	repo   *git.Repository
	url    string // the origin remote
	branch string // the checked-out branch
	head   *object.Commit
}

// load reads the remembered URL and branch and the HEAD commit.
func (c *checkout) load() error {
	remote, err := c.repo.Remote("origin")
	if err != nil || len(remote.Config().URLs) == 0 {
		return fmt.Errorf("%s has no origin remote: it was not made by chronicle sync; move it away to sync afresh", c.dir)
	}
	c.url = remote.Config().URLs[0]
	head, err := c.repo.Head()
	if err != nil {
		return fmt.Errorf("%s: reading HEAD: %w", c.dir, err)
	}
	if !head.Name().IsBranch() {
		return fmt.Errorf("%s: HEAD is detached at %s, not on a branch: check out the branch to follow (git switch main)", c.dir, head.Hash())
	}
	c.branch = head.Name().Short()
	if c.head, err = c.repo.CommitObject(head.Hash()); err != nil {
		return fmt.Errorf("%s: reading HEAD: %w", c.dir, err)
	}
	return nil
}

// maxNamed is how many dirty files an error lists.
const maxNamed = 10

// checkClean refuses a working tree with modified, staged or untracked
// files (ignored files do not count), naming them.
func (c *checkout) checkClean() error {
	w, err := c.repo.Worktree()
	if err != nil {
		return fmt.Errorf("%s: %w", c.dir, err)
	}
	status, err := w.Status()
	if err != nil {
		return fmt.Errorf("%s: reading the working tree status: %w", c.dir, err)
	}
	var dirty []string
	for file, s := range status {
		if s.Staging != git.Unmodified || s.Worktree != git.Unmodified {
			dirty = append(dirty, file)
		}
	}
	if len(dirty) == 0 {
		return nil
	}
	sort.Strings(dirty)
	more := ""
	if len(dirty) > maxNamed {
		more = fmt.Sprintf(" and %d more", len(dirty)-maxNamed)
		dirty = dirty[:maxNamed]
	}
	return fmt.Errorf("%s has changes that are not committed (%s%s): refusing to sync over a dirty tree; commit and push them, or discard them", c.dir, strings.Join(dirty, ", "), more)
}

// checkContained refuses when HEAD is not an ancestor of the commit tip
// (the remote branch as fetched): the checkout then holds commits the
// remote lacks, or the remote branch was rewritten.
func (c *checkout) checkContained(tip plumbing.Hash, remoteBranch string) error {
	tipCommit, err := c.repo.CommitObject(tip)
	if err != nil {
		return fmt.Errorf("%s: reading %s: %w", c.dir, remoteBranch, err)
	}
	ok, err := c.head.IsAncestor(tipCommit)
	if err != nil {
		return fmt.Errorf("%s: comparing HEAD with %s: %w", c.dir, remoteBranch, err)
	}
	if !ok {
		return fmt.Errorf("%s: HEAD (%s) has commits that %s does not (local commits, or the remote branch was rewritten): refusing to sync over local commits; push them, or reset the branch to %s", c.dir, short(c.head.Hash), remoteBranch, remoteBranch)
	}
	return nil
}

func short(h plumbing.Hash) string { return h.String()[:12] }
