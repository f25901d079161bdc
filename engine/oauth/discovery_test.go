package oauth

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
)

// metadataServer serves the JSON documents of docs at their paths, and
// answers 401 with challenge everywhere else.
func metadataServer(t *testing.T, challenge string, docs map[string]any) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d, ok := docs[r.URL.Path]; ok {
			json.NewEncoder(w).Encode(d)
			return
		}
		if r.Method == http.MethodPost {
			w.Header().Set("WWW-Authenticate", challenge)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestDiscoveryAndScopes(t *testing.T) {
	ctx := context.Background()
	md := &transport.AuthServerMetadata{ScopesSupported: []string{"as:scope"}}

	// Path-based protected resource metadata: mcp-go finds it itself; its
	// scopes_supported are asked for when the challenge names none.
	srv := metadataServer(t, `Bearer realm="x"`, map[string]any{
		"/.well-known/oauth-protected-resource/mcp": map[string]any{"resource": "", "scopes_supported": []string{"mcp:read", "mcp:write"}},
	})
	l := &Login{Service: Resource{Name: "s", URL: srv.URL + "/mcp"}}
	ch := l.probe(ctx)
	d := l.discovery(ctx, ch)
	if d != (Discovery{}) {
		t.Fatalf("discovery %+v", d)
	}
	if got := l.scopes(ctx, ch, d, md); !slices.Equal(got, []string{"mcp:read", "mcp:write"}) {
		t.Fatalf("scopes %v", got)
	}

	// The challenge's resource_metadata is recorded (on the server's own
	// origin only), and its scope wins.
	srv2 := metadataServer(t, `Bearer resource_metadata="`+srv.URL+`/custom.json", scope="a b"`, nil)
	l2 := &Login{Service: Resource{Name: "s", URL: srv2.URL + "/mcp"}}
	ch = l2.probe(ctx)
	if d := l2.discovery(ctx, ch); d != (Discovery{}) {
		t.Fatalf("a resource_metadata on another origin was taken: %+v", d)
	}
	srv3 := metadataServer(t, "", nil)
	l3 := &Login{Service: Resource{Name: "s", URL: srv3.URL + "/mcp"}}
	ch3 := &http.Response{Header: http.Header{"Www-Authenticate": {`Bearer resource_metadata="` + srv3.URL + `/custom.json", scope="a b"`}}}
	if d := l3.discovery(ctx, ch3); d.ResourceMetadata != srv3.URL+"/custom.json" {
		t.Fatalf("the challenge's resource_metadata was not recorded: %+v", d)
	}
	if got := l3.scopes(ctx, ch3, Discovery{}, md); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("scopes %v", got)
	}
	// Nothing names a scope but the authorization server.
	if got := l3.scopes(ctx, nil, Discovery{}, md); !slices.Equal(got, []string{"as:scope"}) {
		t.Fatalf("scopes %v", got)
	}

	// A 2025-03-26 server: no protected resource metadata, the
	// authorization server's at the server's root.
	srv4 := metadataServer(t, "Bearer", map[string]any{
		"/.well-known/oauth-authorization-server": map[string]any{"issuer": "x"},
	})
	l4 := &Login{Service: Resource{Name: "s", URL: srv4.URL + "/mcp"}}
	if d := l4.discovery(ctx, l4.probe(ctx)); d.AuthServerMetadata != srv4.URL+"/.well-known/oauth-authorization-server" {
		t.Fatalf("discovery %+v", d)
	}
}

// TestRootResourceMetadata: protected resource metadata only at the
// server's root (RFC 9728 §3.1 fallback, the suite's auth/metadata-var2)
// is found by the login's discovery and scopes, and by mcp-go through the
// handler's HTTP client, whose resource binding check it passes.
func TestRootResourceMetadata(t *testing.T) {
	ctx := context.Background()
	var asURL string
	asSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/oauth-authorization-server/tenant1" {
			http.NotFound(w, r)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": asURL + "/tenant1", "authorization_endpoint": asURL + "/tenant1/authorize",
			"token_endpoint": asURL + "/tenant1/token", "response_types_supported": []string{"code"},
		})
	}))
	t.Cleanup(asSrv.Close)
	asURL = asSrv.URL
	var rs *httptest.Server
	rs = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/.well-known/oauth-protected-resource":
			json.NewEncoder(w).Encode(map[string]any{"resource": rs.URL, "authorization_servers": []string{asURL + "/tenant1"}, "scopes_supported": []string{"root:scope"}})
		case r.Method == http.MethodPost:
			w.Header().Set("WWW-Authenticate", `Bearer realm="x"`)
			w.WriteHeader(http.StatusUnauthorized)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(rs.Close)

	l := &Login{Service: Resource{Name: "s", URL: rs.URL + "/mcp"}}
	ch := l.probe(ctx)
	d := l.discovery(ctx, ch)
	if d != (Discovery{}) {
		t.Fatalf("discovery %+v: the root's protected resource metadata is mcp-go's to read", d)
	}
	if got := l.scopes(ctx, ch, d, &transport.AuthServerMetadata{}); !slices.Equal(got, []string{"root:scope"}) {
		t.Fatalf("scopes %v", got)
	}
	h := newHandler(l.Service, Registration{}, d, "http://127.0.0.1:1/callback", nil, transport.NewMemoryTokenStore(), nil)
	md, err := h.GetServerMetadata(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if md.Issuer != asURL+"/tenant1" || md.AuthorizationEndpoint != asURL+"/tenant1/authorize" {
		t.Fatalf("metadata %+v: not the authorization server the root document names", md)
	}
	if got := resourceOf(ctx, h, l.Service.URL); got != rs.URL {
		t.Fatalf("resource %q, want the root document's %q", got, rs.URL)
	}
}
