package gitskill_test

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
)

func TestFetchRefusesHostileContent(t *testing.T) {
	srv := gittest.NewServer(t)
	tests := []struct {
		name    string
		build   func(r *gittest.Repo)
		maxSize int64
		want    []string // substrings of the error, beside the URL
	}{
		{
			name: "absolute symlink",
			build: func(r *gittest.Repo) {
				writeSkill(r, "s/evil")
				r.Symlink("s/evil/passwd", "/etc/passwd")
			},
			want: []string{`"evil"`, `"passwd"`, "/etc/passwd", "outside the skill folder"},
		},
		{
			name: "dot-dot symlink",
			build: func(r *gittest.Repo) {
				writeSkill(r, "s/evil")
				r.Write("s/secret.txt", "secret")
				r.Symlink("s/evil/docs/up", "../../secret.txt")
			},
			want: []string{`"evil"`, `"docs/up"`, "../../secret.txt", "outside the skill folder"},
		},
		{
			name: "symlink escaping through another symlink",
			build: func(r *gittest.Repo) {
				writeSkill(r, "s/evil")
				r.Symlink("s/evil/here", ".")
				r.Symlink("s/evil/sub", "here")
				r.Symlink("s/evil/out", "sub/../x")
			},
			want: []string{`"evil"`, `"out"`, "leads outside the skill folder"},
		},
		{
			name: "name differs from folder",
			build: func(r *gittest.Repo) {
				r.Write("s/pdf/SKILL.md", manifest("docx"))
			},
			want: []string{`"s/pdf"`, `"docx"`, "must be equal"},
		},
		{
			name: "invalid name",
			build: func(r *gittest.Repo) {
				r.Write("s/Bad_Name/SKILL.md", manifest("Bad_Name"))
			},
			want: []string{`"s/Bad_Name"`, "not a valid skill name"},
		},
		{
			name: "manifest without frontmatter",
			build: func(r *gittest.Repo) {
				r.Write("s/plain/SKILL.md", "# no frontmatter\n")
			},
			want: []string{`"s/plain"`, "SKILL.md"},
		},
		{
			name: "manifest is a symlink",
			build: func(r *gittest.Repo) {
				r.Write("s/linked/REAL.md", manifest("linked"))
				r.Symlink("s/linked/SKILL.md", "REAL.md")
			},
			want: []string{`"s/linked"`, "not a regular file"},
		},
		{
			name: "oversized file",
			build: func(r *gittest.Repo) {
				writeSkill(r, "s/big")
				r.Write("s/big/data.bin", strings.Repeat("x", 2000))
			},
			maxSize: 1000,
			want:    []string{`"big"`, `"data.bin"`, "2000 bytes", "max_size"},
		},
		{
			name: "oversized total",
			build: func(r *gittest.Repo) {
				writeSkill(r, "s/one")
				r.Write("s/one/data", strings.Repeat("x", 600))
				writeSkill(r, "s/two")
				r.Write("s/two/data", strings.Repeat("x", 600))
			},
			maxSize: 1000,
			want:    []string{"over max_size"},
		},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := srv.Repo(t, "hostile"+string(rune('a'+i)))
			tt.build(repo)
			repo.Commit(tt.name)
			repo.Push()
			_, err := fetch(t, gitskill.FetchOptions{URL: repo.URL(), Path: "s", MaxSize: tt.maxSize})
			if err == nil {
				t.Fatal("Fetch succeeded, want an error")
			}
			t.Log(err)
			for _, want := range append(tt.want, repo.URL()) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

func TestFetchKeepsInnerSymlinks(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "links")
	writeSkill(repo, "ok")
	repo.Write("ok/docs/guide.md", "guide")
	repo.Symlink("ok/GUIDE.md", "docs/guide.md")
	repo.Symlink("ok/docs/self", "../docs")
	repo.Symlink("ok/dangling", "docs/missing.md")
	repo.Commit("links")
	repo.Push()
	f := mustFetch(t, gitskill.FetchOptions{URL: repo.URL()})
	if len(f.Skills) != 1 || f.Skills[0].Name != "ok" {
		t.Fatalf("skills = %v", names(f))
	}
}

func TestFetchRefusesURLs(t *testing.T) {
	for _, url := range []string{
		"http://example.com/skills.git",
		"https://user:hunter2@example.com/skills.git",
		"file:///tmp/skills.git",
		"ssh://git@example.com/skills.git",
		"git@github.com:anthropics/skills.git",
	} {
		_, err := fetch(t, gitskill.FetchOptions{URL: url})
		if err == nil || !strings.Contains(err.Error(), "refusing git remote") {
			t.Errorf("%s: err = %v, want a refusal", url, err)
		}
		if err != nil && strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: the error repeats the credentials: %v", url, err)
		}
		if _, err := gitskill.RemoteSHA(t.Context(), url, "main", ""); err == nil {
			t.Errorf("RemoteSHA(%s) succeeded", url)
		}
	}
}

// TestFetchRefusesTraversingNames serves a tree the git porcelain cannot
// make: a skill holding a folder named "..".
func TestFetchRefusesTraversingNames(t *testing.T) {
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "traversal")
	object := func(content string) string { return repo.GitInput(content, "hash-object", "-w", "--stdin") }
	tree := func(lines ...string) string {
		return repo.GitInput(strings.Join(lines, "\n")+"\n", "mktree", "--missing")
	}
	pwned := tree("100644 blob " + object("pwned") + "\tpwned")
	skill := tree("100644 blob "+object(manifest("trav"))+"\tSKILL.md", "040000 tree "+pwned+"\t..")
	root := tree("040000 tree " + tree("040000 tree "+skill+"\ttrav") + "\ts")
	commit := repo.GitInput("", "commit-tree", root, "-m", "traversal")
	repo.Git("update-ref", "refs/heads/main", commit)
	repo.Push()
	// Beside the skills, such a folder is passed by.
	good := tree("100644 blob " + object(manifest("good")) + "\tSKILL.md")
	beside := repo.GitInput("", "commit-tree", tree("040000 tree "+good+"\tgood", "040000 tree "+pwned+"\t.."), "-m", "beside")
	repo.Git("update-ref", "refs/heads/beside", beside)
	repo.Push()

	_, err := fetch(t, gitskill.FetchOptions{URL: repo.URL(), Path: "s"})
	if err == nil || !strings.Contains(err.Error(), `"trav"`) || !strings.Contains(err.Error(), "traverses paths") {
		t.Fatalf("err = %v, want a refusal of the \"..\" folder in skill trav", err)
	}
	t.Log(err)
	f := mustFetch(t, gitskill.FetchOptions{URL: repo.URL(), Ref: "beside"})
	if got := names(f); len(got) != 1 || got[0] != "good" {
		t.Errorf("skills beside a \"..\" folder = %v, want [good]", got)
	}
}
