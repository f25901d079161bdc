package hub

import (
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
)

// SkillDebounce is how long a central skill must be quiet before the
// watcher snapshots it.
const SkillDebounce = 500 * time.Millisecond

// WatchSkills keeps fs_change snapshots of the central skills while the hub
// runs (SPEC §9): when a skill's files change in ~/.chronicle/skills, a
// snapshot is taken once they have been quiet for SkillDebounce. Snapshots
// are deduplicated by content and the newest 50 fs_change ones are kept, so
// an edit made in place can always be found again. It returns when ctx ends.
func WatchSkills(ctx context.Context, storeDir, snapshotDir string, log *slog.Logger) error {
	if _, err := os.Stat(storeDir); err != nil {
		return nil // nothing imported yet
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	addTree(w, storeDir)
	var mu sync.Mutex
	timers := map[string]*time.Timer{}
	defer func() {
		mu.Lock()
		for _, t := range timers {
			t.Stop()
		}
		mu.Unlock()
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			log.Warn("watching skills", "error", err)
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Op&fsnotify.Create != 0 {
				if info, err := os.Stat(ev.Name); err == nil && info.IsDir() {
					addTree(w, ev.Name)
				}
			}
			name := skillOf(storeDir, ev.Name)
			if name == "" {
				continue
			}
			mu.Lock()
			if t, ok := timers[name]; ok {
				t.Stop()
			}
			timers[name] = time.AfterFunc(SkillDebounce, func() {
				dir := filepath.Join(storeDir, name)
				if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err != nil {
					return // removed, or mid-swap
				}
				if _, took, err := snapshot.Take(fsys.OS{}, snapshotDir, name, dir, snapshot.KindFSChange, snapshot.Meta{Note: "changed on disk"}); err != nil {
					log.Warn("snapshot", "skill", name, "error", err)
				} else if took {
					log.Info("snapshot of a changed skill", "skill", name)
				}
			})
			mu.Unlock()
		}
	}
}

// skillOf returns the central skill a changed path belongs to, or "" for
// chronicle's own staging folders and anything else.
func skillOf(storeDir, path string) string {
	rel, err := filepath.Rel(storeDir, path)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return ""
	}
	name, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	if !names.Valid(name) {
		return "" // .staging-…, .chronicle-new, …
	}
	return name
}

// addTree watches dir and every folder below it.
func addTree(w *fsnotify.Watcher, dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = w.Add(p)
		}
		return nil
	})
}
