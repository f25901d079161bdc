package watch

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFolderSeesAFolderAppear: the folder does not exist when the watch
// starts; its creation and a login file written in it, then a file
// replaced by a rename (as an atomic write does), each end in a call.
func TestFolderSeesAFolderAppear(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".chronicle", "oauth")
	ctx, cancel := context.WithCancel(context.Background())
	changed := make(chan struct{}, 8)
	watching := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- folder(ctx, dir, ".json", func() { changed <- struct{}{} }, func() { close(watching) })
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	wait := func(what string) {
		t.Helper()
		select {
		case <-changed:
		case <-time.After(30 * time.Second):
			t.Fatalf("never called: %s", what)
		}
	}
	<-watching
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	wait("the folder appeared with a login in it")
	tmp := filepath.Join(dir, ".a.json.tmp")
	if err := os.WriteFile(tmp, []byte(`{"x":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "a.json")); err != nil {
		t.Fatal(err)
	}
	wait("a login replaced by a rename")
}
