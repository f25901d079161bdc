package watch

import (
	"context"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// debounce is how long the watcher waits for writes to settle.
const debounce = 200 * time.Millisecond

// File calls changed after path is written, created or replaced (apply
// renames a new state over the old one, so the folder is watched), until ctx
// ends.
func File(ctx context.Context, path string, changed func()) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	if err := w.Add(filepath.Dir(path)); err != nil {
		return err
	}
	path = filepath.Clean(path)
	return settle(ctx, w, func(ev fsnotify.Event) bool { return filepath.Clean(ev.Name) == path }, changed)
}

// settle calls changed once writes, creations and renames that relevant
// accepts have settled (debounce), until ctx ends or w closes. relevant
// sees each such event once and may act on it (Folder follows a folder
// that appears).
func settle(ctx context.Context, w *fsnotify.Watcher, relevant func(fsnotify.Event) bool, changed func()) error {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	fire := make(chan struct{}, 1)
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Op&(fsnotify.Write|fsnotify.Create|fsnotify.Rename) == 0 || !relevant(ev) {
				continue
			}
			if timer != nil {
				timer.Stop()
			}
			timer = time.AfterFunc(debounce, func() {
				select {
				case fire <- struct{}{}:
				default:
				}
			})
		case <-fire:
			changed()
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			_ = err
		}
	}
}
