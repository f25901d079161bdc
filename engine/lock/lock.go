package lock

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/safefile"
)

// pollInterval is how often Acquire retries while it waits for the lock.
const pollInterval = 100 * time.Millisecond

// A Holder says who holds the lock; it is what the lock file contains.
type Holder struct {
	PID       int       `json:"pid"`
	Host      string    `json:"host"`
	Time      time.Time `json:"time"`
	Operation string    `json:"operation"`
}

// A Lock is the held state lock. Release it when the operation ends; if the
// process dies first, the kernel releases it.
type Lock struct {
	f    *os.File
	path string
}

// Acquire takes the lock at path for op ("apply", "sync", …). When another
// process holds it, Acquire fails at once with a *HeldError if timeout is 0,
// and otherwise retries until it gets the lock, timeout has passed, or ctx
// ends (Ctrl-C while waiting: ctx's error, wrapped).
func Acquire(ctx context.Context, path, op string, timeout time.Duration) (*Lock, error) {
	if err := (fsys.OS{}).MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f, err := safefile.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	deadline := time.Now().Add(timeout)
	for {
		got, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if got {
			break
		}
		if !time.Now().Before(deadline) {
			f.Close()
			return nil, held(path, timeout)
		}
		wait := time.NewTimer(min(pollInterval, time.Until(deadline)))
		select {
		case <-ctx.Done():
			wait.Stop()
			f.Close()
			return nil, fmt.Errorf("waiting for the lock %s: %w", path, ctx.Err())
		case <-wait.C:
		}
	}
	l := &Lock{f: f, path: path}
	if err := l.record(op); err != nil {
		l.Release()
		return nil, err
	}
	return l, nil
}

// record writes this process's Holder into the lock file.
func (l *Lock) record(op string) error {
	host, _ := os.Hostname()
	data, _ := json.Marshal(Holder{PID: os.Getpid(), Host: host, Time: time.Now(), Operation: op})
	data = append(data, '\n')
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("lock %s: %w", l.path, err)
	}
	// Not synced to disk: the record only names the holder in messages;
	// the lock is the kernel's, which a crash releases with the process.
	if _, err := l.f.WriteAt(data, 0); err != nil {
		return fmt.Errorf("lock %s: %w", l.path, err)
	}
	return nil
}

// Release clears the holder record and gives the lock up. Calling it again
// does nothing.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	// Clear the record while still holding the lock, so it never describes
	// the next holder wrongly.
	l.f.Truncate(0)
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.f = nil
	if err != nil {
		return fmt.Errorf("releasing lock %s: %w", l.path, err)
	}
	return nil
}
