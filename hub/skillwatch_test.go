package hub

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/snapshot"
)

func TestWatchSkillsSnapshotsAnEditInPlace(t *testing.T) {
	home := t.TempDir()
	store := filepath.Join(home, "skills")
	snaps := filepath.Join(home, "snapshots")
	dir := filepath.Join(store, "review", "scripts")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(store, "review", "SKILL.md"), []byte("---\nname: review\ndescription: r\n---\n"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- WatchSkills(ctx, store, snaps, slog.New(slog.NewTextHandler(io.Discard, nil))) }()
	t.Cleanup(func() { cancel(); <-done })
	time.Sleep(100 * time.Millisecond) // let the watcher start

	// An edit in a nested folder, written in several steps: one snapshot.
	for i := 0; i < 3; i++ {
		os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\necho "+string(rune('a'+i))+"\n"), 0o755)
		time.Sleep(50 * time.Millisecond)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		list, _ := snapshot.List(fsys.OS{}, snaps, "review")
		if len(list) == 1 && list[0].Kind == snapshot.KindFSChange {
			break
		}
		if len(list) > 1 {
			t.Fatalf("the burst of writes gave %d snapshots, want one after the debounce", len(list))
		}
		if time.Now().After(deadline) {
			t.Fatalf("no fs_change snapshot: %+v", list)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// A staging folder of apply is not a skill.
	os.MkdirAll(filepath.Join(store, ".review.staging-1"), 0o755)
	time.Sleep(2 * SkillDebounce)
	if list, _ := snapshot.List(fsys.OS{}, snaps, "review"); len(list) != 1 {
		t.Fatalf("snapshots after a staging folder: %+v", list)
	}
}
