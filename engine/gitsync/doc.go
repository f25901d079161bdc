// Package gitsync keeps chronicle's config repository (~/.chronicle/source)
// following a remote branch, for "chronicle sync" (SPEC §9): the first sync
// clones, every later one fetches and fast-forwards, all through go-git
// over https only.
//
// A sync never loses work. It refuses a working tree with modified or
// untracked files, and a HEAD that is not an ancestor of the fetched remote
// tip (local commits, or a rewritten remote branch); only then does it
// reset the checkout hard to the remote tip, which is then a fast-forward.
//
// What it remembers lives in the checkout's own git configuration, so the
// user's git sees the same thing: the URL is the "origin" remote, and the
// ref is the checked-out branch (on the first sync without a ref, the
// remote's HEAD branch at that time). A different URL is refused unless the
// caller asks to Reset, and even then only a clean checkout whose commits
// are all on the old remote is replaced.
package gitsync
