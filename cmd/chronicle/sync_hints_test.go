package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
)

// TestSyncHints: what sync says when it cannot clone names a sync command
// that works, and that command is run (issue 21, item 14). The server is a
// real HTTPS git server, as for TestSync.
func TestSyncHints(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "dotfiles")
	// Only "trunk" is pushed: the bare repository's HEAD still names main,
	// which git servers then do not advertise at all.
	repo.Git("checkout", "-q", "-b", "trunk")
	repo.Write("chronicle.hcl", "service \"docs\" {\n  url = \"https://docs.example.com/mcp\"\n}\nlink \"direct\" {\n  tools    = [\"cursor\"]\n  services = [\"docs\"]\n}\n")
	repo.Commit("first")
	repo.Push()
	home := gitHome(t)
	source := filepath.Join(home, ".chronicle", "source")

	t.Run("HEAD names a missing branch", func(t *testing.T) {
		out := mustRun(t, 1, "sync", "--repo", repo.URL())
		if strings.Contains(out, "reference not found") || !strings.Contains(out, "HEAD names no branch that exists") || !strings.Contains(out, "its branches: trunk") {
			t.Fatalf("sync of a repository whose HEAD names a missing branch:\n%s", out)
		}
		if _, err := os.Stat(source); err == nil {
			t.Fatalf("a failed clone left %s", source)
		}
		hinted := regexp.MustCompile(`\(chronicle (sync --repo \S+ --ref \S+)\)`).FindStringSubmatch(out)
		if hinted == nil {
			t.Fatalf("no sync command in the hint:\n%s", out)
		}
		if out := mustRun(t, 0, strings.Fields(hinted[1])...); !strings.Contains(out, "Apply complete!") {
			t.Fatalf("the hinted %s:\n%s", hinted[1], out)
		}
		if b, _ := os.ReadFile(filepath.Join(home, ".cursor", "mcp.json")); !strings.Contains(string(b), `"docs"`) {
			t.Fatalf("the hinted sync did not apply: %s", b)
		}
	})

	t.Run("missing repository", func(t *testing.T) {
		out := mustRun(t, 1, "sync", "--reset", "--repo", srv.URL+"/nothing.git")
		line := strings.TrimSpace(out)
		if !strings.Contains(line, "repository not found") || strings.HasSuffix(line, ":") || strings.Contains(line, `auth = secret`) {
			t.Fatalf("sync of a missing repository (no dangling colon, sync's own way to give a token):\n%s", out)
		}
		if !strings.Contains(line, "chronicle sync --token-env NAME") {
			t.Fatalf("the hint does not name sync's token flag:\n%s", out)
		}
	})

	t.Run("private repository", func(t *testing.T) {
		srv.RequireToken("dotfiles", "s3cret-token-value")
		os.RemoveAll(source)
		out := mustRun(t, 1, "sync", "--repo", repo.URL(), "--ref", "trunk")
		if !strings.Contains(out, "needs authentication") || !strings.Contains(out, "chronicle sync --token-env NAME") {
			t.Fatalf("sync of a private repository without a token:\n%s", out)
		}
		t.Setenv("DOTFILES_TOKEN", "s3cret-token-value")
		if out := mustRun(t, 0, "sync", "--repo", repo.URL(), "--ref", "trunk", "--token-env", "DOTFILES_TOKEN"); !strings.Contains(out, "Cloned ") {
			t.Fatalf("the hinted sync --token-env:\n%s", out)
		}
	})
}
