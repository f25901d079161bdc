package watch

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/lock"
	"github.com/chronicle-dev/chronicle/engine/safefile"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
)

// Debounce is how long a central skill must be quiet before the
// watcher snapshots it.
const Debounce = 500 * time.Millisecond

// Retry is how often a hub that does not watch the skills checks
// whether the one that does has stopped.
const Retry = 5 * time.Second

// A Skills keeps fs_change snapshots of the central skills while a hub
// runs (SPEC §9): when a skill's files change in ~/.chronicle/skills, a
// snapshot is taken once they have been quiet for SkillDebounce. Snapshots
// are deduplicated by content and the newest 50 fs_change ones are kept, so
// an edit made in place can always be found again.
//
// Every tool starts its own `chronicle serve --stdio`, so many hubs run at
// once; only the one holding the watch lock (LockPath, an advisory lock the
// kernel drops when its holder exits) watches, and the others try again
// every SkillWatchRetry to take over when it stops. The store may be created
// after the hub starts (by the first apply that imports a skill): the
// watcher sees it appear.
type Skills struct {
	StoreDir    string       // ~/.chronicle/skills
	SnapshotDir string       // ~/.chronicle/snapshots
	LockPath    string       // ~/.chronicle/skillwatch.lock
	Log         *slog.Logger // nil: nothing is logged

	// Tests replace these; zero means the constants above and real timers.
	debounce time.Duration
	retry    time.Duration
	after    func(d time.Duration, f func()) (stop func() bool)
	// Tests observe the watcher through these; each may be nil.
	onWaiting  func()                   // the lock is held by another watcher
	onWatching func()                   // the lock is ours and the store's folder is watched
	onEvent    func(path, skill string) // an event was handled ("" skill: not a skill's)
}

// Run watches until ctx ends. It returns nil then; an error means the skills
// cannot be watched at all (no inotify, an unreadable folder).
func (w *Skills) Run(ctx context.Context) error {
	if w.Log == nil {
		w.Log = slog.New(slog.DiscardHandler)
	}
	l, err := w.takeLock(ctx)
	if err != nil || l == nil {
		return err
	}
	defer l.Release()
	return w.watch(ctx)
}

// takeLock waits until this process holds the watch lock, or ctx ends
// (nil, nil then).
func (w *Skills) takeLock(ctx context.Context) (*lock.Lock, error) {
	retry := w.retry
	if retry == 0 {
		retry = Retry
	}
	for {
		l, err := lock.Acquire(ctx, w.LockPath, "skill watcher", 0)
		var held *lock.HeldError
		switch {
		case err == nil:
			return l, nil
		case ctx.Err() != nil:
			return nil, nil
		case !errors.As(err, &held):
			return nil, err
		}
		if w.onWaiting != nil {
			w.onWaiting()
		}
		t := time.NewTimer(retry)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, nil
		case <-t.C:
		}
	}
}

// watch follows the store's parent folder, for the store's creation, and
// every folder inside the store.
func (w *Skills) watch(ctx context.Context) error {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer fw.Close()
	parent := filepath.Dir(w.StoreDir)
	if err := safefile.MkdirAll(parent, 0o700); err != nil {
		return err
	}
	if err := fw.Add(parent); err != nil {
		return err
	}
	addTree(fw, w.StoreDir) // nothing when the store does not exist yet
	d := newDebouncer(w.debounce, w.after)
	defer d.stop()
	if w.onWatching != nil {
		w.onWatching()
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-fw.Errors:
			if !ok {
				return nil
			}
			w.Log.Warn("watching skills", "error", err)
		case ev, ok := <-fw.Events:
			if !ok {
				return nil
			}
			w.handle(fw, d, ev)
		}
	}
}

// handle follows new folders and schedules a snapshot of the skill an
// event belongs to.
func (w *Skills) handle(fw *fsnotify.Watcher, d *debouncer, ev fsnotify.Event) {
	if ev.Op&fsnotify.Create != 0 {
		if info, err := os.Stat(ev.Name); err == nil && info.IsDir() && isWithin(w.StoreDir, ev.Name) {
			addTree(fw, ev.Name)
		}
	}
	name := skillOf(w.StoreDir, ev.Name)
	if name != "" {
		d.touch(name, func() { w.snapshot(name) })
	}
	if w.onEvent != nil {
		w.onEvent(ev.Name, name)
	}
}

// snapshot takes an fs_change snapshot of the central skill name, unless it
// is gone or being swapped.
func (w *Skills) snapshot(name string) {
	dir := filepath.Join(w.StoreDir, name)
	if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err != nil {
		return // removed, or mid-swap
	}
	if _, took, err := snapshot.Take(fsys.OS{}, w.SnapshotDir, name, dir, snapshot.KindFSChange, snapshot.Meta{Note: "changed on disk"}); err != nil {
		w.Log.Warn("snapshot", "skill", name, "error", err)
	} else if took {
		w.Log.Info("snapshot of a changed skill", "skill", name)
	}
}

// isWithin reports whether path is dir or inside it.
func isWithin(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(rel)
}
