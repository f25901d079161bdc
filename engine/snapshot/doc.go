// Package snapshot keeps earlier versions of the skills in the central
// store, under ~/.chronicle/snapshots/<skill>/<id>/, with an index.json per
// skill listing them.
//
// A snapshot is a full copy of a skill's tree, made through a staging folder
// and one rename, so it is complete or absent. Snapshots are deduplicated by
// tree hash: taking one of a tree that equals the latest snapshot's — or,
// right after a restore, the snapshot the restore brought back — returns
// that snapshot instead (serve's watcher sees a restore's own writes). What is kept depends on the kind: imported ones
// forever; apply (taken before a replace) and restore (taken before a
// restore) ones too, since each stands for a deliberate command and they are
// few; fs_change ones (taken by the watcher in serve) are rolling, the newest
// KeepFSChange of them.
//
// Taking and restoring hold a per-skill lock, so the watcher in serve and a
// command such as apply never write one skill's snapshots at once.
package snapshot
