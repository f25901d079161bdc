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

// TestSyncPlanHints: the hints of a plan made by sync (conflicts, drift,
// removing everything) name sync's own flags and an import that reaches
// the checkout, and each hinted command is run as printed (issue 21,
// item 14).
func TestSyncPlanHints(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "dotfiles")
	repo.Write("chronicle.hcl", `
service "docs" {
  url = "https://docs.example.com/mcp"
}
service "search" {
  url = "https://search.example.com/mcp"
}
link "direct" {
  tools    = ["cursor"]
  services = ["docs", "search"]
}
`)
	repo.Commit("first")
	repo.Push()
	home := gitHome(t)
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	// The user has docs already, exactly as declared: chronicle did not
	// write it, so it is a conflict, and import is how to take it over.
	if err := os.WriteFile(cursor, []byte(`{"mcpServers":{"docs":{"url":"https://docs.example.com/mcp"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	docs := `link.direct["cursor"].service.docs`

	out := mustRun(t, 1, "sync", "--repo", repo.URL())
	if strings.Contains(out, "apply --") {
		t.Errorf("sync names apply's flags:\n%s", out)
	}
	runHint(t, 0, hint(t, out, `chronicle sync --skip-conflicts`))
	if b, _ := os.ReadFile(cursor); !strings.Contains(string(b), `"search"`) {
		t.Fatalf("sync --skip-conflicts did not add search: %s", b)
	}
	out = mustRun(t, 1, "sync")
	if out := runHint(t, 0, hint(t, out, `chronicle --chdir \S+ import '`+regexp.QuoteMeta(docs)+`'`)); !strings.Contains(out, "Imported "+docs) {
		t.Fatalf("the hinted import:\n%s", out)
	}
	if out := mustRun(t, 0, "sync"); !strings.Contains(out, "No changes.") {
		t.Fatalf("sync after the import:\n%s", out)
	}

	// Drift: the user edits chronicle's entry; sync --replace takes the
	// declared one back.
	b, _ := os.ReadFile(cursor)
	if err := os.WriteFile(cursor, []byte(strings.Replace(string(b), "https://docs.example.com/mcp", "https://elsewhere.example.com/mcp", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out = mustRun(t, 1, "sync")
	runHint(t, 0, hint(t, out, `chronicle sync --replace '`+regexp.QuoteMeta(docs)+`'`))
	if b, _ := os.ReadFile(cursor); !strings.Contains(string(b), "https://docs.example.com/mcp") {
		t.Fatalf("sync --replace did not put the declared entry back: %s", b)
	}

	// A pushed configuration that declares nothing would remove
	// everything: refused, with sync's --destroy.
	repo.Write("chronicle.hcl", "# emptied\n")
	repo.Commit("empty")
	repo.Push()
	out = mustRun(t, 1, "sync")
	if !strings.Contains(out, "Refusing to remove everything") {
		t.Fatalf("an emptied configuration was not refused:\n%s", out)
	}
	runHint(t, 0, hint(t, out, `chronicle sync --destroy`))
	if b, _ := os.ReadFile(cursor); strings.Contains(string(b), `"docs"`) {
		t.Fatalf("sync --destroy left docs: %s", b)
	}
}

// hint finds the command matching re in out, or fails.
func hint(t *testing.T, out, re string) string {
	t.Helper()
	found := regexp.MustCompile(re).FindString(out)
	if found == "" {
		t.Fatalf("no hint matching %s in:\n%s", re, out)
	}
	return found
}

// runHint runs a command line as a POSIX shell would split it (words, and
// single-quoted strings), for hints printed with quoted addresses.
func runHint(t *testing.T, want int, line string) string {
	t.Helper()
	var args []string
	var word strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				args = append(args, word.String())
				word.Reset()
			}
			inWord = false
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		args = append(args, word.String())
	}
	if len(args) == 0 || args[0] != "chronicle" {
		t.Fatalf("not a chronicle command: %s", line)
	}
	return mustRun(t, want, args[1:]...)
}
