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
	var timer *time.Timer
	fire := make(chan struct{}, 1)
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if filepath.Clean(ev.Name) != filepath.Clean(path) || ev.Op&(fsnotify.Write|fsnotify.Create|fsnotify.Rename) == 0 {
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
