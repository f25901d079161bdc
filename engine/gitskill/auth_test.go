package gitskill_test

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/gitskill"
	"github.com/chronicle-dev/chronicle/engine/gitskill/gittest"
)

func TestFetchPrivateRepository(t *testing.T) {
	const token = "tok-correct-horse"
	srv := gittest.NewServer(t)
	repo := srv.Repo(t, "private")
	writeSkill(repo, "pdf")
	sha := repo.Commit("private")
	repo.Push()
	srv.RequireToken("private", token)

	for _, tt := range []struct{ auth, want string }{
		{"", "needs authentication"},
		{"tok-wrong", "the token was refused"},
	} {
		_, err := fetch(t, gitskill.FetchOptions{URL: repo.URL(), Auth: tt.auth})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), repo.URL()) {
			t.Errorf("auth %q: err = %v, want %q about %s", tt.auth, err, tt.want, repo.URL())
		}
		t.Log(err)
		if err != nil && tt.auth != "" && strings.Contains(err.Error(), tt.auth) {
			t.Errorf("the error shows the token: %v", err)
		}
		if _, err := gitskill.RemoteSHA(t.Context(), repo.URL(), "", tt.auth); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("RemoteSHA with auth %q: err = %v, want %q", tt.auth, err, tt.want)
		}
	}

	f := mustFetch(t, gitskill.FetchOptions{URL: repo.URL(), Auth: token})
	if f.SHA != sha || len(f.Skills) != 1 {
		t.Errorf("with the token: SHA %s, skills %v; want %s, [pdf]", f.SHA, names(f), sha)
	}
	if got, err := gitskill.RemoteSHA(t.Context(), repo.URL(), "main", token); err != nil || got != sha {
		t.Errorf("RemoteSHA with the token = %s, %v; want %s", got, err, sha)
	}
	f = mustFetch(t, gitskill.FetchOptions{URL: repo.URL(), Ref: sha, Auth: token})
	if f.SHA != sha {
		t.Errorf("pinned fetch with the token: SHA %s, want %s", f.SHA, sha)
	}
}
