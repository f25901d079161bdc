package watch

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/fsnotify/fsnotify"
)

// A debouncer runs one action per skill once that skill has been quiet for
// its delay: every touch within the delay starts the wait again.
type debouncer struct {
	delay time.Duration
	after func(d time.Duration, f func()) (stop func() bool)

	mu      sync.Mutex
	pending map[string]func() bool // skill → stop its scheduled action
}

// newDebouncer returns a debouncer; zero delay and nil after mean
// SkillDebounce and real timers.
func newDebouncer(delay time.Duration, after func(time.Duration, func()) func() bool) *debouncer {
	if delay == 0 {
		delay = Debounce
	}
	if after == nil {
		after = func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }
	}
	return &debouncer{delay: delay, after: after, pending: map[string]func() bool{}}
}

// touch (re)schedules action for name.
func (d *debouncer) touch(name string, action func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if stop, ok := d.pending[name]; ok {
		stop()
	}
	d.pending[name] = d.after(d.delay, action)
}

// stop cancels every scheduled action.
func (d *debouncer) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for name, stop := range d.pending {
		stop()
		delete(d.pending, name)
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
