// Package fsys is chronicle's one filesystem seam, in the spirit of chezmoi's
// System: every read and write that plan, apply, backups, snapshots and the
// skill store make goes through a Reader or a System.
//
// Plan is given a Reader: it cannot write, by type. Apply is given a System.
// OS is the real filesystem; Recorder wraps a System for tests, recording
// every operation and letting a test intervene before any of them — to fail
// it, or to change the filesystem the way another program would — without
// package-level hooks.
//
// Install is how a file chronicle does not own is replaced: the new content
// is written beside it, synced, and exchanged with the file in one atomic
// step (renameat2 RENAME_EXCHANGE on Linux, renamex_np RENAME_SWAP on
// macOS), which hands back the displaced
// bytes, so a caller can tell whether another program wrote the file since
// it was read, and redo its edit on top of that program's version.
package fsys
