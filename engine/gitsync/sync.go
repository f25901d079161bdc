package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-git/go-git/v5"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/gitskill"
)

// SyncOptions says which repository to follow and where.
type SyncOptions struct {
	// Dir is the checkout, ~/.chronicle/source.
	Dir string
	// URL is the https:// repository; empty means the remembered one.
	URL string
	// Ref is the branch to follow; empty means the checked-out branch, or
	// the remote's HEAD branch on the first sync.
	Ref string
	// Auth is the resolved token, or empty. Keep it in memory only.
	Auth string
	// Reset allows replacing a checkout that follows another URL, provided
	// it is clean and holds no commit missing from its old remote.
	Reset bool
	// Progress receives go-git's progress; nil is quiet.
	Progress io.Writer
	// System is what the staging folder of a clone is made, moved and
	// removed through; nil is fsys.OS. (What go-git writes inside a
	// checkout, it writes itself.)
	System fsys.System
}

// sys returns the System o writes through.
func (o SyncOptions) sys() fsys.System {
	if o.System == nil {
		return fsys.OS{}
	}
	return o.System
}

// A SyncResult says what a Sync did.
type SyncResult struct {
	URL string
	Ref string // the branch followed
	// OldSHA is HEAD before the sync ("" after a clone); NewSHA after it.
	OldSHA, NewSHA string
	// Cloned is true when the sync made the checkout (or replaced it).
	Cloned bool
}

// Changed reports whether the sync moved the checkout.
func (r *SyncResult) Changed() bool { return r.OldSHA != r.NewSHA }

// Sync clones o.URL into o.Dir, or brings the existing checkout up to the
// remote branch by a fast-forward, refusing when that could lose local work.
func Sync(ctx context.Context, o SyncOptions) (*SyncResult, error) {
	if o.Dir == "" {
		return nil, errors.New("gitsync: no checkout folder given")
	}
	repo, err := git.PlainOpen(o.Dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		if err := checkEmpty(o.Dir); err != nil {
			return nil, err
		}
		if o.URL == "" {
			return nil, fmt.Errorf("%s is not synced yet: give the repository URL (chronicle sync --repo https://...)", o.Dir)
		}
		return clone(ctx, o)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Dir, err)
	}
	c := &checkout{dir: o.Dir, repo: repo}
	if err := c.load(); err != nil {
		return nil, err
	}
	if o.URL == "" {
		o.URL = c.url
	}
	if err := gitskill.CheckURL(o.URL); err != nil {
		return nil, err
	}
	if o.URL != c.url {
		return c.replace(ctx, o)
	}
	return c.update(ctx, o)
}

// checkEmpty refuses a Dir that exists with something in it but is not a
// repository: a first sync must not write over it.
func checkEmpty(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s exists and is not a git repository: move it away before syncing", dir)
	}
	return nil
}
