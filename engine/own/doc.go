// Package own is chronicle's ownership ledger: the one decision of what to
// do at a place chronicle writes. Given what the configuration wants there,
// what is there now over the projection chronicle owns (the plan's Before),
// and what the state recorded when chronicle last wrote it, Decide returns
// the action and its reason — mine and unchanged, mine and changed since
// (drift, with a diff), not mine (a conflict), written by an interrupted
// apply, --replace, import — and Release does the same for a record the
// configuration no longer wants.
//
// Every kind of thing chronicle writes (an entry in a tool's MCP config, a
// marked block in a shared file, a file owned whole, a skill's link or
// copy) describes itself
// through Subject: what it is called in a reason, what is there now, and a
// diff over the same projection the drift hash is taken over. Every reason
// and hint is written here, once; the plan has no ownership switch of its
// own. (What chronicle created to hold them — a tool file, a rule's
// folder — goes with the last of them when nothing else is left in it:
// engine/plan's emptied files and engine/apply's pruneFolders.)
package own
