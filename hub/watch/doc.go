// Package watch is what the hub watches on disk: the state file (File:
// apply wrote it, the hub reloads), the central skill store (Skills: an
// edit in place becomes a snapshot, one watcher per machine under a lock)
// and a folder of files (Folder: the logins `chronicle auth login` writes,
// which every hub follows).
// It imports nothing of the hub's.
package watch
