package watch

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
	"github.com/chronicle-dev/chronicle/internal/waitfor"
)

// manualTimers stands in for time.AfterFunc: a test fires the scheduled
// actions that were not stopped, when it chooses.
type manualTimers struct {
	mu    sync.Mutex
	timer []*manualTimer
}

type manualTimer struct {
	f             func()
	stopped, done bool
}

func (m *manualTimers) after(_ time.Duration, f func()) func() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := &manualTimer{f: f}
	m.timer = append(m.timer, t)
	return func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		was := !t.stopped && !t.done
		t.stopped = true
		return was
	}
}

// fire runs every live action and returns how many ran.
func (m *manualTimers) fire() int {
	m.mu.Lock()
	var live []*manualTimer
	for _, t := range m.timer {
		if !t.stopped && !t.done {
			t.done = true
			live = append(live, t)
		}
	}
	m.mu.Unlock()
	for _, t := range live {
		t.f()
	}
	return len(live)
}

// An event is what the watcher reported handling.
type event struct{ path, skill string }

// watchedHome runs a SkillWatcher over home/skills with manual timers until
// the test ends, and returns once it watches. Its events arrive on the
// returned channel.
func watchedHome(t *testing.T, home string) (*manualTimers, <-chan event) {
	t.Helper()
	timers := &manualTimers{}
	events := make(chan event, 100)
	watching := make(chan struct{}, 1)
	w := &Skills{
		StoreDir: filepath.Join(home, "skills"), SnapshotDir: filepath.Join(home, "snapshots"),
		LockPath: filepath.Join(home, "skillwatch.lock"), Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		after:      timers.after,
		onWatching: func() { watching <- struct{}{} },
		onEvent:    func(path, skill string) { events <- event{path, skill} },
	}
	runUntilCleanup(t, w)
	waitfor.Receive(t, watching, "the watcher watches")
	return timers, events
}

// runUntilCleanup runs w until the test ends, and then waits for it.
func runUntilCleanup(t *testing.T, w *Skills) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := waitfor.Receive(t, done, "SkillWatcher.Run to return"); err != nil {
				t.Errorf("SkillWatcher.Run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// hangGuard bounds every wait of these tests: far longer than any event
// takes, it only turns a bug that loses an event into a failure, not a hang.
const hangGuard = time.Minute

// waitEvent returns the first event for path.
func waitEvent(t *testing.T, events <-chan event, path string) event {
	t.Helper()
	guard := time.After(hangGuard)
	for {
		select {
		case ev := <-events:
			if ev.path == path {
				return ev
			}
		case <-guard:
			t.Fatalf("no event for %s", path)
		}
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSkillWatcherSnapshotsAnEditInPlace(t *testing.T) {
	home := t.TempDir()
	store := filepath.Join(home, "skills")
	writeFile(t, filepath.Join(store, "review", "SKILL.md"), "---\nname: review\ndescription: r\n---\n")
	os.MkdirAll(filepath.Join(store, "review", "scripts"), 0o755)
	timers, events := watchedHome(t, home)

	// An edit in a nested folder, written as several files: each event
	// starts the quiet period again, so one snapshot holds them all.
	for _, f := range []string{"a.sh", "b.sh", "c.sh"} {
		p := filepath.Join(store, "review", "scripts", f)
		writeFile(t, p, "#!/bin/sh\necho "+f+"\n")
		if ev := waitEvent(t, events, p); ev.skill != "review" {
			t.Fatalf("an edit of %s counted for skill %q", p, ev.skill)
		}
	}
	if n := timers.fire(); n != 1 {
		t.Fatalf("%d snapshots were due after one burst of edits, want 1", n)
	}
	list, err := snapshot.List(fsys.OS{}, filepath.Join(home, "snapshots"), "review")
	if err != nil || len(list) != 1 || list[0].Kind != snapshot.KindFSChange {
		t.Fatalf("snapshots after the burst: %+v, %v", list, err)
	}

	// A staging folder of apply is not a skill: nothing is scheduled.
	staging := filepath.Join(store, ".review.staging-1")
	os.MkdirAll(staging, 0o755)
	if ev := waitEvent(t, events, staging); ev.skill != "" {
		t.Fatalf("a staging folder counted as skill %q", ev.skill)
	}
	// (A late event of the burst may still schedule review again: firing
	// it takes no new snapshot, since review did not change.)
	timers.fire()
	entries, _ := os.ReadDir(filepath.Join(home, "snapshots"))
	for _, e := range entries {
		if e.Name() != "review" {
			t.Fatalf("a staging folder was snapshotted as %q", e.Name())
		}
	}
	if list, _ := snapshot.List(fsys.OS{}, filepath.Join(home, "snapshots"), "review"); len(list) != 1 {
		t.Fatalf("snapshots of review: %+v, want still the one", list)
	}
}

// TestSkillWatcherSeesTheStoreAppear: the hub started before the first
// apply made ~/.chronicle/skills; edits in the new store are snapshotted.
func TestSkillWatcherSeesTheStoreAppear(t *testing.T) {
	home := t.TempDir()
	store := filepath.Join(home, "skills")
	timers, events := watchedHome(t, home)

	os.MkdirAll(store, 0o755)
	waitEvent(t, events, store)
	skill := filepath.Join(store, "review")
	os.MkdirAll(skill, 0o755)
	if ev := waitEvent(t, events, skill); ev.skill != "review" {
		t.Fatalf("a new skill folder counted for %q", ev.skill)
	}
	writeFile(t, filepath.Join(skill, "SKILL.md"), "---\nname: review\ndescription: r\n---\n")
	if ev := waitEvent(t, events, filepath.Join(skill, "SKILL.md")); ev.skill != "review" {
		t.Fatalf("SKILL.md counted for %q", ev.skill)
	}
	timers.fire()
	if list, err := snapshot.List(fsys.OS{}, filepath.Join(home, "snapshots"), "review"); err != nil || len(list) != 1 {
		t.Fatalf("snapshots of a skill in a store made after the start: %+v, %v", list, err)
	}
}

// TestOneSkillWatcherAtATime: of two hubs, one watches; the other takes over
// when the first stops.
func TestOneSkillWatcherAtATime(t *testing.T) {
	home := t.TempDir()
	newWatcher := func(watching, waiting chan<- string, name string) *Skills {
		return &Skills{
			StoreDir: filepath.Join(home, "skills"), SnapshotDir: filepath.Join(home, "snapshots"),
			LockPath: filepath.Join(home, "skillwatch.lock"), Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
			retry:      time.Millisecond,
			onWatching: func() { watching <- name },
			onWaiting: func() {
				select {
				case waiting <- name:
				default:
				}
			},
		}
	}
	watching := make(chan string, 2)
	waiting := make(chan string, 1)
	stopFirst := runUntilCleanup(t, newWatcher(watching, waiting, "first"))
	if got := waitfor.Receive(t, watching, "a watcher watches"); got != "first" {
		t.Fatalf("%s watches, want first", got)
	}
	runUntilCleanup(t, newWatcher(watching, waiting, "second"))
	select {
	case got := <-waiting:
		if got != "second" {
			t.Fatalf("%s waits, want second", got)
		}
	case got := <-watching:
		t.Fatalf("%s watches too while the first holds the lock", got)
	case <-time.After(hangGuard):
		t.Fatal("the second watcher neither waits nor watches")
	}
	stopFirst()
	if got := waitfor.Receive(t, watching, "the second watcher takes over"); got != "second" {
		t.Fatalf("%s took over, want second", got)
	}
}
