// Package gitstatus tells whether a file belongs to a git work tree and, if
// so, whether git tracks it or ignores it, as `git ls-files` and
// `git check-ignore` would, read with go-git (no git binary is run).
//
// plan uses it before it writes a hub entry that carries a personal path or
// a daemon's URL (link { transport = "http" }) into a project's file: such an
// entry belongs only in a file that will not be committed.
package gitstatus
