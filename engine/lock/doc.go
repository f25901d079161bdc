// Package lock owns the state lock (~/.chronicle/state.lock) that keeps two
// chronicle runs from changing the state at once, and the advisory locks
// built the same way (the skill watcher's, see docs/locks.md).
//
// The lock is an OS-level lock on the lock file — flock(2) on Unix,
// LockFileEx on Windows — that the kernel drops when the holder's process
// ends, however it ends, so there are no stale locks to clean up and the
// file itself is never removed (removing a locked file would let two
// processes lock two different files of the same name). The holder writes
// who it is — pid, host, time, operation — into the file, so a second run can
// say what it is waiting for.
package lock
