package lock

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as the other process: with these variables set,
// TestMain takes the lock at helperPath, prints "locked", holds it for
// helperHold (or until killed) and exits without releasing it.
const (
	helperPath = "CHRONICLE_LOCK_HELPER_PATH"
	helperHold = "CHRONICLE_LOCK_HELPER_HOLD"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(helperPath); path != "" {
		if _, err := Acquire(path, "helper", 0); err != nil {
			fmt.Println(err)
			os.Exit(3)
		}
		fmt.Println("locked")
		hold, _ := time.ParseDuration(os.Getenv(helperHold))
		time.Sleep(hold)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A holder is a helper process holding the lock.
type holder struct {
	pid  int
	kill func() // kill -9, and return once the process is gone
}

// startHolder runs a helper process that holds the lock at path, and
// returns once it holds it. The helper is killed when the test ends.
func startHolder(t *testing.T, path string, hold time.Duration) holder {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperPath+"="+path, helperHold+"="+hold.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	kill := func() {
		cmd.Process.Kill()
		<-done
	}
	t.Cleanup(kill)
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("the helper did not take the lock: %q", line)
	}
	return holder{pid: cmd.Process.Pid, kill: kill}
}

func TestHeldByAnotherProcessUntilItDies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.lock")
	h := startHolder(t, path, time.Hour)

	_, err := Acquire(path, "apply", 0)
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
	l, err := Acquire(path, "apply", 2*time.Second)
	if err != nil {
		t.Fatalf("the lock was not freed when its holder died: %v", err)
	}
	l.Release()
}

func TestTimeoutWaitsForTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.lock")
	startHolder(t, path, 300*time.Millisecond)
	start := time.Now()
	l, err := Acquire(path, "apply", 10*time.Second)
	if err != nil {
		t.Fatalf("waiting for a holder that exits: %v", err)
	}
	defer l.Release()
	if waited := time.Since(start); waited < 100*time.Millisecond {
		t.Fatalf("acquired after %v while the helper held the lock", waited)
	}
}

func TestTimeoutExpires(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.lock")
	startHolder(t, path, time.Hour)
	start := time.Now()
	_, err := Acquire(path, "apply", 300*time.Millisecond)
	var held *HeldError
	if !errors.As(err, &held) || held.Waited != 300*time.Millisecond || !strings.Contains(err.Error(), "after waiting 300ms") {
		t.Fatalf("Acquire with a short timeout: %v", err)
	}
	if waited := time.Since(start); waited < 300*time.Millisecond || waited > 5*time.Second {
		t.Fatalf("gave up after %v, want about 300ms", waited)
	}
}

func TestRecordAndRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".chronicle", "state.lock")
	l, err := Acquire(path, "apply", 0)
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
	if _, err := Acquire(path, "sync", 0); err == nil {
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
	l2, err := Acquire(path, "sync", 0)
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	l2.Release()
}
