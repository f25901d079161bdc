// Package lock owns the state lock (~/.chronicle/state.lock) that keeps two
// chronicle runs from changing the state at once.
//
// The lock is an OS-level flock(2) on the lock file: the kernel drops it when
// the holder's process ends, however it ends, so there are no stale locks to
// clean up and the file itself is never removed (removing a flocked file
// would let two processes lock two different files of the same name). The
// holder writes who it is — pid, host, time, operation — into the file, so
// a second run can say what it is waiting for.
package lock
