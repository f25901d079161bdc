package oauth

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/chronicle-dev/chronicle/engine/service"
)

type serviceOAuth = service.OAuth

func TestCallbackChecks(t *testing.T) {
	const issuer = "https://auth.example"
	for _, tc := range []struct {
		name, query, want string
	}{
		{"good", "code=abc&state=s1", ""},
		{"good with iss", "code=abc&state=s1&iss=https%3A%2F%2Fauth.example", ""},
		{"iss with a slash", "code=abc&state=s1&iss=https%3A%2F%2Fauth.example%2F", "RFC 9207"},
		{"another issuer", "code=abc&state=s1&iss=https%3A%2F%2Fevil.example", "RFC 9207"},
		{"wrong state", "code=abc&state=s2", "state"},
		{"refused", "error=access_denied&error_description=no+thanks&state=s1", "refused the login: access_denied: no thanks"},
		{"no code", "state=s1", "no authorization code"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			code, err := callback{query: q}.check("s1", issuer, false)
			if tc.want == "" {
				if err != nil || code != "abc" {
					t.Fatalf("code %q, %v", code, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestIssRequired(t *testing.T) {
	q, _ := url.ParseQuery("code=abc&state=s1")
	if _, err := (callback{query: q}).check("s1", "https://auth.example", true); err == nil || !strings.Contains(err.Error(), "does not name its issuer") {
		t.Fatalf("a missing iss was accepted from a server that sends it: %v", err)
	}
}

func TestParsePasted(t *testing.T) {
	if _, ok := parsePasted("  http://127.0.0.1:4000/callback?code=x&state=y \n"); !ok {
		t.Fatal("a redirected URL was not taken")
	}
	for _, line := range []string{"", "yes", "http://127.0.0.1:4000/callback", "%zz"} {
		if _, ok := parsePasted(line); ok {
			t.Fatalf("%q was taken for a redirect", line)
		}
	}
}

func TestChallengeParam(t *testing.T) {
	h := []string{`Basic realm="x"`, `Bearer resource_metadata="https://a/b", scope="read write", error=invalid_token`}
	if got := challengeParam(h, "scope"); got != "read write" {
		t.Fatalf("scope %q", got)
	}
	if got := challengeParam(h, "error"); got != "invalid_token" {
		t.Fatalf("error %q", got)
	}
	if got := challengeParam([]string{`Bearer xscope="a"`}, "scope"); got != "" {
		t.Fatalf("a longer name matched: %q", got)
	}
}

// The registration mcp-go sends goes out with application_type "native";
// other requests pass untouched.
func TestNativeRegistration(t *testing.T) {
	var got map[string]any
	var plain string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.URL.Path == "/register" {
			json.Unmarshal(b, &got)
		} else {
			plain = string(b)
		}
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(`{"client_id":"dyn-1"}`))
	}))
	defer srv.Close()
	client := &http.Client{Transport: nativeRegistration{}, Timeout: 10 * time.Second}
	resp, err := client.Post(srv.URL+"/register", "application/json", strings.NewReader(`{"redirect_uris":["http://127.0.0.1:1/callback"]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got["application_type"] != "native" || got["redirect_uris"] == nil {
		t.Fatalf("registration sent %v", got)
	}
	resp, err = client.Post(srv.URL+"/token", "application/x-www-form-urlencoded", strings.NewReader("a=b"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if plain != "a=b" {
		t.Fatalf("a form was changed: %q", plain)
	}
}

func TestRegistrationChoice(t *testing.T) {
	const redirect = "http://127.0.0.1:4242/callback"
	dyn := &Record{Registration: Registration{Kind: Dynamic, ClientID: "dyn-1", RedirectURI: redirect}}
	for _, tc := range []struct {
		name   string
		svc    Resource
		prior  *Record
		kind   string
		client string
	}{
		{"configured", Resource{OAuth: oauthWith("fixed", "")}, dyn, PreRegistered, "fixed"},
		{"registered before", Resource{}, dyn, Dynamic, "dyn-1"},
		{"metadata document", Resource{OAuth: oauthWith("", "https://c.example/client.json")}, nil, MetadataDocument, "https://c.example/client.json"},
		{"register now", Resource{}, nil, Dynamic, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := (&Login{Service: tc.svc}).registration(tc.prior, redirect, true)
			if reg.Kind != tc.kind || reg.ClientID != tc.client || reg.RedirectURI != redirect {
				t.Fatalf("registration %+v", reg)
			}
		})
	}
	if p := redirectPort(dyn.Registration); p != 4242 {
		t.Fatalf("port %d", p)
	}
	if p := redirectPort(Registration{Kind: PreRegistered, RedirectURI: redirect}); p != 0 {
		t.Fatalf("a configured client's port was kept: %d", p)
	}
}

func TestStatusWithoutServer(t *testing.T) {
	st := newTestStore(t)
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	st.Now = func() time.Time { return now }
	write := func(url string, rec Record) {
		t.Helper()
		rec.URL = url
		if err := st.save(&rec); err != nil {
			t.Fatal(err)
		}
	}
	reg := Registration{Kind: Dynamic, ClientID: "c"}
	write("https://a.example/mcp", Record{Issuer: "https://as", Resource: "a", Registration: reg, Scopes: []string{"read"},
		Token: &transport.Token{AccessToken: "access-a-0123", ExpiresAt: now.Add(2 * time.Hour)}})
	write("https://b.example/mcp", Record{Issuer: "https://as", Resource: "b", Registration: reg,
		Token: &transport.Token{AccessToken: "access-b-0123", ExpiresAt: now.Add(-time.Minute)}})
	write("https://c.example/mcp", Record{Issuer: "https://as", Resource: "c", Registration: reg,
		Token: &transport.Token{AccessToken: "access-c-0123", RefreshToken: "refresh-c-0123", ExpiresAt: now.Add(time.Minute)}})
	write("https://d.example/mcp", Record{Issuer: "https://as", Resource: "d", Registration: reg, LoginRequired: "refused"})

	for _, tc := range []struct {
		url, status string
		soon        bool
	}{
		{"https://a.example/mcp", LoggedIn, true},
		{"https://b.example/mcp", LoginRequired, false},
		{"https://c.example/mcp/", LoggedIn, false},
		{"https://d.example/mcp", LoginRequired, false},
		{"https://e.example/mcp", LoginRequired, false},
	} {
		s, err := st.Status("x", tc.url)
		if err != nil || s.Status != tc.status || s.ExpiresWithin(now, 24*time.Hour) != tc.soon {
			t.Errorf("%s: %+v, %v", tc.url, s, err)
		}
	}
	if got := st.Masker.Text("refresh-c-0123 access-a-0123"); strings.Contains(got, "0123") {
		t.Fatalf("the masker did not learn the tokens it read: %q", got)
	}
}

func oauthWith(id, metadata string) (o serviceOAuth) {
	o.ClientID, o.ClientMetadataURL = id, metadata
	return o
}
