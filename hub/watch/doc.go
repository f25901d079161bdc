// Package watch is what the hub watches on disk: the state file (File:
// apply wrote it, the hub reloads) and the central skill store (Skills: an
// edit in place becomes a snapshot, one watcher per machine under a lock).
// It imports nothing of the hub's.
package watch
