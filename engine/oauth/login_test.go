package oauth

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/internal/oauthtest"
)

func testService(ts *oauthtest.Servers) Resource {
	return Resource{Name: "corp", URL: ts.MCPURL, OAuth: service.OAuth{ClientID: oauthtest.ClientID, Scopes: []string{"openid", "offline_access"}}}
}

func newTestStore(t *testing.T) *Store {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	return NewStore(filepath.Join(home, ".chronicle"), fsys.OS{}, mask.NewMasker())
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func login(t *testing.T, st *Store, ts *oauthtest.Servers) *Record {
	t.Helper()
	open, _ := oauthtest.Browser(t, ts, true)
	rec, err := (&Login{Store: st, Service: testService(ts), Open: open}).Run(ctxFor(t))
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	return rec
}

// callTool reaches the protected MCP server through mcp-go's client with
// the store's tokens, as the hub will.
func callTool(t *testing.T, st *Store, ts *oauthtest.Servers) error {
	t.Helper()
	svc := testService(ts)
	rec, err := st.Find(svc.URL)
	if err != nil {
		t.Fatal(err)
	}
	if rec == nil {
		rec = &Record{URL: svc.URL}
	}
	tokens := st.TokensFor(*rec)
	c, err := client.NewOAuthStreamableHttpClient(svc.URL, transport.OAuthConfig{
		ClientID: rec.Registration.ClientID, RedirectURI: rec.Registration.RedirectURI, Scopes: rec.Scopes,
		TokenStore: tokens, PKCEEnabled: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tokens.Bind(c.GetTransport().(*transport.StreamableHTTP).GetOAuthHandler())
	ctx := ctxFor(t)
	if err := c.Start(ctx); err != nil {
		return err
	}
	if _, err := c.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		return err
	}
	res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: "whoami"}})
	if err != nil {
		return err
	}
	if res.IsError {
		t.Fatalf("whoami failed: %+v", res.Content)
	}
	return nil
}

// expire moves the record's access token expiry to the past, as time
// passing would.
func expire(t *testing.T, st *Store, url string) {
	t.Helper()
	rec, err := st.Find(url)
	if err != nil || rec == nil {
		t.Fatal(err)
	}
	rec.Token.ExpiresAt = time.Now().Add(-time.Second)
	if err := st.save(rec); err != nil {
		t.Fatal(err)
	}
}

func TestLoginStatusRefreshLogout(t *testing.T) {
	ts := oauthtest.Start(t)
	st := newTestStore(t)
	svc := testService(ts)

	if s, err := st.Status("corp", svc.URL); err != nil || s.Status != LoginRequired {
		t.Fatalf("before login: %+v, %v", s, err)
	}
	if err := callTool(t, st, ts); err == nil {
		t.Fatal("the server accepted a call before any login")
	}

	rec := login(t, st, ts)
	if rec.Issuer != ts.Issuer || rec.Resource != ts.MCPURL || rec.Registration.Kind != PreRegistered || rec.Token.RefreshToken == "" {
		t.Fatalf("record after login: issuer %q resource %q registration %+v refresh %t", rec.Issuer, rec.Resource, rec.Registration, rec.Token.RefreshToken != "")
	}
	path := st.path(rec.Issuer, rec.Resource)
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%s: %v, mode %v", path, err, fi.Mode())
	}
	for _, v := range []string{rec.Token.AccessToken, rec.Token.RefreshToken} {
		if got := st.Masker.Text("log line " + v); strings.Contains(got, v) {
			t.Fatalf("the masker does not know a token: %q", got)
		}
	}
	s, err := st.Status("corp", svc.URL)
	if err != nil || s.Status != LoggedIn || s.Issuer != ts.Issuer || s.Registration != PreRegistered || s.Expires == nil {
		t.Fatalf("status after login: %+v, %v", s, err)
	}
	if err := callTool(t, st, ts); err != nil {
		t.Fatalf("a call after login: %v", err)
	}

	// Refresh: the token expires; the next call refreshes it, the rotated
	// refresh token is on disk, and the old access token is dead.
	before := *rec.Token
	expire(t, st, svc.URL)
	if err := callTool(t, st, ts); err != nil {
		t.Fatalf("a call after expiry: %v", err)
	}
	after, _ := st.Find(svc.URL)
	if after.Token.AccessToken == before.AccessToken || after.Token.RefreshToken == before.RefreshToken || after.Token.RefreshToken == "" {
		t.Fatal("the token was not refreshed and rotated on disk")
	}
	if ts.Accepts(ctxFor(t), "Bearer "+before.AccessToken) {
		t.Fatal("the provider still accepts the replaced access token")
	}

	// Logout: revoked at the provider, then forgotten.
	res, err := st.Logout(ctxFor(t), svc, nil)
	if err != nil || !res.Found || !res.Revoked {
		t.Fatalf("logout: %+v, %v", res, err)
	}
	if ts.Revoked() == 0 || ts.Accepts(ctxFor(t), "Bearer "+after.Token.AccessToken) {
		t.Fatal("the tokens were not revoked at the provider")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the record survived the logout: %v", err)
	}
	if res, err := st.Logout(ctxFor(t), svc, nil); err != nil || res.Found {
		t.Fatalf("a second logout: %+v, %v", res, err)
	}
}

func TestInvalidGrantAsksForLogin(t *testing.T) {
	ts := oauthtest.Start(t)
	st := newTestStore(t)
	svc := testService(ts)
	rec := login(t, st, ts)

	// Another client spends the refresh token (the rotation the provider
	// does makes the stored one worthless).
	other := newHandler(svc, rec.Registration, rec.Discovery, rec.Registration.RedirectURI, rec.Scopes, transport.NewMemoryTokenStore(), nil)
	if _, err := other.RefreshToken(ctxFor(t), rec.Token.RefreshToken); err != nil {
		t.Fatalf("spending the refresh token: %v", err)
	}
	expire(t, st, svc.URL)
	if err := callTool(t, st, ts); err == nil {
		t.Fatal("a call with a refused refresh token succeeded")
	}
	after, _ := st.Find(svc.URL)
	if after.Token.RefreshToken != "" || !strings.Contains(after.LoginRequired, "invalid_grant") {
		t.Fatalf("the refused refresh token was kept: %+v", after)
	}
	s, _ := st.Status("corp", svc.URL)
	if s.Status != LoginRequired {
		t.Fatalf("status %q after invalid_grant", s.Status)
	}
	// No retry: the next read answers login required without a request.
	if _, err := st.TokensFor(*after).GetToken(ctxFor(t)); err != ErrLoginRequired {
		t.Fatalf("GetToken after invalid_grant: %v", err)
	}
	// A new login clears it.
	login(t, st, ts)
	if s, _ := st.Status("corp", svc.URL); s.Status != LoggedIn {
		t.Fatalf("status %q after a new login", s.Status)
	}
}

// Over SSH the browser cannot reach the loopback listener: the user pastes
// the redirected URL. A record the server's old authorization server left
// is dropped by the login.
func TestPastedRedirectAndChangedIssuer(t *testing.T) {
	ts := oauthtest.Start(t)
	st := newTestStore(t)
	svc := testService(ts)
	stale := &Record{Service: "corp", URL: svc.URL, Issuer: "https://old-issuer.example", Resource: svc.URL,
		Registration: Registration{Kind: Dynamic, ClientID: "old"}, Token: &transport.Token{AccessToken: "old-access-token"}}
	if err := st.save(stale); err != nil {
		t.Fatal(err)
	}

	follow, redirected := oauthtest.Browser(t, ts, false)
	pr, pw := io.Pipe()
	defer pw.Close()
	open := func(authURL string) error {
		if err := follow(authURL); err != nil {
			return err
		}
		_, err := io.WriteString(pw, "not a url\n"+redirected()+"\n")
		return err
	}
	rec, err := (&Login{Store: st, Service: svc, Open: open, Paste: pr}).Run(ctxFor(t))
	if err != nil {
		t.Fatalf("login with a pasted redirect: %v", err)
	}
	if rec.Issuer != ts.Issuer {
		t.Fatalf("issuer %q", rec.Issuer)
	}
	recs, _ := st.Records(svc.URL)
	if len(recs) != 1 || recs[0].Issuer != ts.Issuer {
		t.Fatalf("the old issuer's record was kept: %d records", len(recs))
	}
	if err := callTool(t, st, ts); err != nil {
		t.Fatalf("a call after the pasted login: %v", err)
	}
}

// A logout forgets the tokens even when the authorization server cannot
// be reached, and says it could not revoke them.
func TestLogoutWithoutServer(t *testing.T) {
	st := newTestStore(t)
	svc := Resource{Name: "gone", URL: "http://127.0.0.1:1/mcp"}
	rec := &Record{Service: "gone", URL: svc.URL, Issuer: "http://127.0.0.1:1", Resource: svc.URL,
		Registration: Registration{Kind: Dynamic, ClientID: "c"}, Token: &transport.Token{AccessToken: "gone-access-token"}}
	if err := st.save(rec); err != nil {
		t.Fatal(err)
	}
	res, err := st.Logout(ctxFor(t), svc, nil)
	if err != nil || !res.Found || res.Revoked || !strings.Contains(res.NotRevoked, "could not be reached") {
		t.Fatalf("logout: %+v, %v", res, err)
	}
	if r, _ := st.Find(svc.URL); r != nil {
		t.Fatal("the record survived")
	}
}

// A server that names another authorization server than the record's: the
// refresh token is not sent there, the old registration is dropped, and
// the service needs a login.
func TestChangedIssuerAtRefresh(t *testing.T) {
	ts := oauthtest.Start(t)
	st := newTestStore(t)
	svc := testService(ts)
	old := &Record{Service: "corp", URL: svc.URL, Issuer: "https://old-issuer.example", Resource: svc.URL,
		Registration: Registration{Kind: PreRegistered, ClientID: oauthtest.ClientID},
		Token:        &transport.Token{AccessToken: "old-access-token", RefreshToken: "old-refresh-token", ExpiresAt: time.Now().Add(-time.Minute)}}
	if err := st.save(old); err != nil {
		t.Fatal(err)
	}
	if err := callTool(t, st, ts); err == nil {
		t.Fatal("a call with the old issuer's token succeeded")
	}
	rec, _ := st.Find(svc.URL)
	if rec.Token != nil || rec.Registration.ClientID != "" || !strings.Contains(rec.LoginRequired, ts.Issuer) {
		t.Fatalf("the old issuer's record was kept: %+v", rec)
	}
	if s, _ := st.Status("corp", svc.URL); s.Status != LoginRequired {
		t.Fatalf("status %q", s.Status)
	}
}
