package lock

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as the other process: with helperPath set,
// TestMain takes the lock at that path, prints "locked", and holds it until
// its stdin reaches end of file (or it is killed). Then it writes the file
// named by helperDone and exits without releasing the lock: the kernel does.
const (
	helperPath = "CHRONICLE_LOCK_HELPER_PATH"
	helperDone = "CHRONICLE_LOCK_HELPER_DONE"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(helperPath); path != "" {
		if _, err := Acquire(context.Background(), path, "helper", 0); err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin)
		if done := os.Getenv(helperDone); done != "" {
			os.WriteFile(done, []byte("exiting\n"), 0o600)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A holder is a helper process holding the lock.
type holder struct {
	pid     int
	kill    func() // kill -9, and return once the process is gone
	release func() // let it exit on its own (still without releasing)
	done    string // the file it writes just before it exits
}

// startHolder runs a helper process that holds the lock at path, and
// returns once it holds it. The helper is killed when the test ends.
func startHolder(t *testing.T, path string) holder {
	t.Helper()
	done := filepath.Join(t.TempDir(), "helper-exiting")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperPath+"="+path, helperDone+"="+done)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	kill := func() {
		cmd.Process.Kill()
		<-exited
	}
	t.Cleanup(kill)
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("the helper did not take the lock: %q", line)
	}
	return holder{pid: cmd.Process.Pid, kill: kill, release: func() { in.Close() }, done: done}
}

func TestHeldByAnotherProcessUntilItDies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.lock")
	h := startHolder(t, path)

	_, err := Acquire(context.Background(), path, "apply", 0)
	var held *HeldError
	if !errors.As(err, &held) {
		t.Fatalf("Acquire while held: %v, want a *HeldError", err)
	}
	host, _ := os.Hostname()
	if held.Holder.PID != h.pid || held.Holder.Host != host || held.Holder.Operation != "helper" {
		t.Fatalf("holder %+v, want pid %d on %s (helper)", held.Holder, h.pid, host)
	}
	want := fmt.Sprintf("state is locked by pid %d on host %s since ", h.pid, host)
	if msg := err.Error(); !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, "(helper); wait for it, or retry with --lock-timeout 30s") {
		t.Fatalf("message %q", msg)
	}

	// kill -9: the holder never releases; the kernel does.
	h.kill()
	l, err := Acquire(context.Background(), path, "apply", 2*time.Second)
	if err != nil {
		t.Fatalf("the lock was not freed when its holder died: %v", err)
	}
	l.Release()
}

func TestTimeoutWaitsForTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.lock")
	h := startHolder(t, path)
	if _, err := Acquire(context.Background(), path, "apply", 0); err == nil {
		t.Fatal("Acquire succeeded while the helper held the lock")
	}
	got := make(chan error, 1)
	go func() {
		l, err := Acquire(context.Background(), path, "apply", time.Hour)
		if err == nil {
			// The helper writes this file just before it exits; only its
			// exit frees the lock.
			if _, statErr := os.Stat(h.done); statErr != nil {
				err = fmt.Errorf("acquired while the helper still held the lock: %v", statErr)
			}
			l.Release()
		}
		got <- err
	}()
	h.release()
	if err := <-got; err != nil {
		t.Fatalf("waiting for a holder that exits: %v", err)
	}
}

func TestTimeoutExpires(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.lock")
	startHolder(t, path)
	_, err := Acquire(context.Background(), path, "apply", 300*time.Millisecond)
	var held *HeldError
	if !errors.As(err, &held) || held.Waited != 300*time.Millisecond || !strings.Contains(err.Error(), "after waiting 300ms") {
		t.Fatalf("Acquire with a short timeout: %v", err)
	}
}

// TestWaitEndsWithTheContext: Ctrl-C while waiting for the lock ends the
// wait with the context's error, however long the timeout.
func TestWaitEndsWithTheContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.lock")
	startHolder(t, path)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Acquire(ctx, path, "apply", time.Hour)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), path) {
		t.Fatalf("Acquire with a cancelled context: %v", err)
	}
}

func TestRecordAndRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".chronicle", "state.lock")
	l, err := Acquire(context.Background(), path, "apply", 0)
	if err != nil {
		t.Fatal(err)
	}
	var h Holder
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &h); err != nil || h.PID != os.Getpid() || h.Operation != "apply" || h.Time.IsZero() {
		t.Fatalf("lock record %s (%v)", data, err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("lock file mode %v, want 0600", info.Mode().Perm())
	}
	// flock locks belong to an open file, so even this process is refused.
	if _, err := Acquire(context.Background(), path, "sync", 0); err == nil {
		t.Fatal("a second Acquire in the same process succeeded")
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Fatalf("a second Release: %v", err)
	}
	if data, _ := os.ReadFile(path); len(data) != 0 {
		t.Fatalf("the record outlived the lock: %s", data)
	}
	l2, err := Acquire(context.Background(), path, "sync", 0)
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	l2.Release()
}
