package gittest

import (
	"os"
	"path/filepath"
	"testing"
)

// A Repo is a bare repository served by a Server, with a working clone
// where the test writes files, commits, tags and pushes.
type Repo struct {
	// Name is the repository's name on the server, without ".git".
	Name string
	// Bare is the served bare repository; Work is the working clone.
	Bare, Work string

	server *Server
	t      testing.TB
}

// Repo creates an empty repository called name (served as name.git) whose
// default branch is main.
func (s *Server) Repo(t testing.TB, name string) *Repo {
	t.Helper()
	r := &Repo{
		Name:   name,
		Bare:   filepath.Join(s.root, name+".git"),
		Work:   t.TempDir(),
		server: s,
		t:      t,
	}
	s.env.run(t, s.root, "init", "--quiet", "--bare", r.Bare)
	s.env.run(t, r.Work, "init", "--quiet")
	s.env.run(t, r.Work, "remote", "add", "origin", r.Bare)
	return r
}

// URL returns the repository's address, https://127.0.0.1:PORT/NAME.git.
func (r *Repo) URL() string { return r.server.URL + "/" + r.Name + ".git" }

// Git runs git in the working clone and returns its trimmed output.
func (r *Repo) Git(args ...string) string {
	r.t.Helper()
	return r.server.env.run(r.t, r.Work, args...)
}

// GitInput runs git in the working clone with stdin, for plumbing
// commands such as hash-object --stdin and mktree that build objects the
// porcelain refuses to make.
func (r *Repo) GitInput(stdin string, args ...string) string {
	r.t.Helper()
	return r.server.env.runInput(r.t, r.Work, stdin, args...)
}

// Write writes a file of the working clone (a slash-separated path),
// creating its folders.
func (r *Repo) Write(path, content string) {
	r.t.Helper()
	full := filepath.Join(r.Work, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// Symlink creates a symbolic link at path pointing at target, verbatim.
func (r *Repo) Symlink(path, target string) {
	r.t.Helper()
	full := filepath.Join(r.Work, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Symlink(target, full); err != nil {
		r.t.Fatal(err)
	}
}

// Remove deletes a file or folder of the working clone.
func (r *Repo) Remove(path string) {
	r.t.Helper()
	if err := os.RemoveAll(filepath.Join(r.Work, filepath.FromSlash(path))); err != nil {
		r.t.Fatal(err)
	}
}

// Commit stages everything and commits it, returning the commit's SHA.
func (r *Repo) Commit(msg string) string {
	r.t.Helper()
	r.Git("add", "--all")
	r.Git("commit", "--quiet", "--allow-empty", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}

// Tag creates (or moves) a lightweight tag at HEAD.
func (r *Repo) Tag(name string) {
	r.t.Helper()
	r.Git("tag", "--force", name)
}

// AnnotatedTag creates (or moves) an annotated tag at HEAD.
func (r *Repo) AnnotatedTag(name, msg string) {
	r.t.Helper()
	r.Git("tag", "--force", "--annotate", "-m", msg, name)
}

// Branch creates a branch at HEAD and switches the working clone to it.
func (r *Repo) Branch(name string) {
	r.t.Helper()
	r.Git("switch", "--quiet", "--create", name)
}

// Switch switches the working clone to an existing branch.
func (r *Repo) Switch(name string) {
	r.t.Helper()
	r.Git("switch", "--quiet", name)
}

// Push force-pushes every branch and tag to the served repository.
func (r *Repo) Push() {
	r.t.Helper()
	r.Git("push", "--quiet", "--force", "origin", "--all")
	r.Git("push", "--quiet", "--force", "origin", "--tags")
}

// AllowFetchBySHA lets clients fetch any commit of the served repository by
// its SHA (uploadpack.allowReachableSHA1InWant), as GitHub and GitLab do;
// git http-backend refuses that by default.
func (r *Repo) AllowFetchBySHA() {
	r.t.Helper()
	r.server.env.run(r.t, r.Bare, "config", "uploadpack.allowReachableSHA1InWant", "true")
}
