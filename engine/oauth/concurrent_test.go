package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/internal/oauthtest"
)

// helperEnv makes the test binary a second process that reads the token
// of the service at CHRONICLE_OAUTH_URL from the store in $HOME, refreshing
// it when due, and prints a digest of the access token it got.
const helperEnv = "CHRONICLE_OAUTH_HELPER"

func runHelper(string) int {
	st := NewStore(filepath.Join(os.Getenv("HOME"), ".chronicle"), fsys.OS{}, mask.NewMasker())
	svc := Resource{Name: "corp", URL: os.Getenv("CHRONICLE_OAUTH_URL")}
	svc.OAuth.ClientID = oauthtest.ClientID
	rec, err := st.Find(svc.URL)
	if err != nil || rec == nil {
		fmt.Fprintln(os.Stderr, "no record:", err)
		return 2
	}
	_, tokens := st.Handler(svc, rec, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	tok, err := tokens.GetToken(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "GetToken:", err)
		return 1
	}
	sum := sha256.Sum256([]byte(tok.AccessToken))
	fmt.Println(hex.EncodeToString(sum[:]))
	return 0
}

// Two processes that find the token due at once refresh it once: the
// second waits on the record's lock, reads the record again and uses the
// token the first got, instead of spending the rotated refresh token.
func TestTwoProcessesRefreshOnce(t *testing.T) {
	ts := oauthtest.Start(t)
	st := newTestStore(t)
	svc := testService(ts)
	login(t, st, ts)

	for round := range 3 {
		expire(t, st, svc.URL)
		var cmds [2]*exec.Cmd
		var outs, errs [2]strings.Builder
		for i := range cmds {
			cmds[i] = exec.Command(os.Args[0], "-test.run=^$")
			cmds[i].Env = append(os.Environ(), helperEnv+"=refresh", "CHRONICLE_OAUTH_URL="+svc.URL)
			cmds[i].Stdout, cmds[i].Stderr = &outs[i], &errs[i]
		}
		for _, c := range cmds {
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i, c := range cmds {
			if err := c.Wait(); err != nil {
				t.Fatalf("round %d: process %d: %v: %s", round, i, err, errs[i].String())
			}
		}
		if outs[0].String() != outs[1].String() {
			t.Fatalf("round %d: the two processes got different tokens: %q, %q", round, outs[0].String(), outs[1].String())
		}
		if s, _ := st.Status("corp", svc.URL); s.Status != LoggedIn {
			t.Fatalf("round %d: status %q after two refreshes at once", round, s.Status)
		}
		if err := callTool(t, st, ts); err != nil {
			t.Fatalf("round %d: the refreshed token does not work: %v", round, err)
		}
	}
}
