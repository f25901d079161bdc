package watch

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"

	"github.com/chronicle-dev/chronicle/engine/safefile"
)

// Folder calls changed after a file of dir whose name ends in suffix is
// written, created or replaced, once writes have settled, until ctx ends.
// The folder may not exist yet (`chronicle auth login` makes
// ~/.chronicle/oauth at the first login): its parent is watched, made when
// missing, and the folder is followed from the moment it appears; its
// appearance counts as a change, since files may be written in it before
// it is followed.
func Folder(ctx context.Context, dir, suffix string, changed func()) error {
	return folder(ctx, dir, suffix, changed, nil)
}

// folder is Folder; watching, when not nil, is called once the folder's
// parent is followed (tests wait for it).
func folder(ctx context.Context, dir, suffix string, changed, watching func()) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	dir = filepath.Clean(dir)
	if err := safefile.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	if err := w.Add(filepath.Dir(dir)); err != nil {
		return err
	}
	_ = w.Add(dir) // fails only when the folder does not exist yet
	if watching != nil {
		watching()
	}
	return settle(ctx, w, func(ev fsnotify.Event) bool {
		name := filepath.Clean(ev.Name)
		if name == dir {
			return ev.Op&fsnotify.Create != 0 && w.Add(dir) == nil
		}
		return filepath.Dir(name) == dir && strings.HasSuffix(name, suffix)
	}, changed)
}
