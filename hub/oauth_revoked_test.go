package hub

import (
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/oauthtest"
)

// TestOAuthTokenRevokedMidSession: the authorization server revokes the
// login while the hub holds a live session with the service. The next
// call says which command logs in and the status shows "login required";
// a new `chronicle auth login` reaches the running hub, and the same
// client's next call works, without a restart of the hub.
func TestOAuthTokenRevokedMidSession(t *testing.T) {
	ts := oauthtest.Start(t)
	home := t.TempDir()
	spec := corpService(ts)
	store := logIn(t, ts, home, spec)
	path := filepath.Join(t.TempDir(), "state.json")
	writeState(t, path, []service.Service{spec}, nil)
	h := newTestHub(t, path, Options{OAuthHome: home, ListGrace: testGrace})
	r := serveHub(t, h)
	watchLogins(t, h)
	c := connect(t, r.url, nil)
	if text, isErr := callText(t, c, "corp__whoami", nil); isErr || text != "a logged-in user" {
		t.Fatalf("corp__whoami before the revocation: %q (error %v)", text, isErr)
	}

	rec, err := store.Find(ts.MCPURL)
	if err != nil || rec == nil {
		t.Fatalf("the login: %v", err)
	}
	for _, tok := range []string{rec.Token.RefreshToken, rec.Token.AccessToken} {
		resp, err := http.PostForm(ts.Issuer+"/revoke", url.Values{"token": {tok}, "client_id": {oauthtest.ClientID}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("the provider answered the revocation %d", resp.StatusCode)
		}
	}
	if ts.Accepts(bounded(t), "Bearer "+rec.Token.AccessToken) {
		t.Fatal("the provider still accepts the revoked token")
	}

	text, isErr := callText(t, c, "corp__whoami", nil)
	if !isErr || !strings.Contains(text, "chronicle auth login corp") {
		t.Fatalf("corp__whoami after the revocation: %q (error %v); want a tool error naming chronicle auth login corp", text, isErr)
	}
	if st := serviceStatus(t, r.url, "corp"); st.Login != "login required" {
		t.Fatalf("/api/status shows corp as %+v after the revocation, not login required", st)
	}

	logIn(t, ts, home, spec)
	// The login reaches the hub through its watch of ~/.chronicle/oauth:
	// the client calls again until it does, within a hang guard.
	deadline := time.Now().Add(30 * time.Second)
	for calls := 1; ; calls++ {
		text, isErr = callText(t, c, "corp__whoami", nil)
		if !isErr && text == "a logged-in user" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("corp__whoami after a new login, %d calls: %q (error %v)", calls, text, isErr)
		}
	}
	if st := serviceStatus(t, r.url, "corp"); st.Login != "logged in" {
		t.Errorf("/api/status shows corp as %+v after the new login", st)
	}
}
