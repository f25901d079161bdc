package oauth

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// A Resource is what the package needs of one OAuth service: its name, its
// address, its oauth block and the configured client secret, resolved.
type Resource struct {
	Name         string
	URL          string
	OAuth        service.OAuth
	ClientSecret string
}

// clientName is the client_name chronicle registers under.
const clientName = "chronicle"

// newHandler returns mcp-go's OAuth handler for svc with registration reg
// (an empty client id for discovery alone), its tokens kept in tokens.
func newHandler(svc Resource, reg Registration, d Discovery, redirectURI string, scopes []string, tokens transport.TokenStore, client *http.Client) *transport.OAuthHandler {
	h := transport.NewOAuthHandler(config(svc, reg, d, redirectURI, scopes, tokens, client))
	h.SetBaseURL(svc.URL)
	return h
}

// config is the one place an OAuthConfig is made: PKCE always, the
// configured secret for a pre-registered client and the issued one for a
// dynamic registration, and an HTTP client whose registrations are
// native (nativeRegistration).
func config(svc Resource, reg Registration, d Discovery, redirectURI string, scopes []string, tokens transport.TokenStore, client *http.Client) transport.OAuthConfig {
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	wrapped := *client
	wrapped.Transport = rootResourceMetadata{next: nativeRegistration{next: client.Transport}}
	secret := reg.ClientSecret
	if reg.Kind == PreRegistered {
		secret = svc.ClientSecret
	}
	return transport.OAuthConfig{
		ClientID: reg.ClientID, ClientSecret: secret, TokenEndpointAuthMethod: reg.AuthMethod,
		RedirectURI: redirectURI, Scopes: scopes, TokenStore: tokens, PKCEEnabled: true,
		ProtectedResourceMetadataURL: d.ResourceMetadata, AuthServerMetadataURL: d.AuthServerMetadata,
		HTTPClient: &wrapped,
	}
}

// Handler returns mcp-go's OAuth handler for a service that has logged in
// (rec), with rec's tokens bound to it: what an HTTP client of the service
// passes to transport.WithHTTPOAuth's handler. clientSecret is the
// configured secret of a pre-registered client.
func (s *Store) Handler(svc Resource, rec *Record, client *http.Client) (*transport.OAuthHandler, *Tokens) {
	tokens := s.TokensFor(*rec)
	h := newHandler(svc, rec.Registration, rec.Discovery, rec.Registration.RedirectURI, rec.Scopes, tokens, client)
	tokens.Bind(h)
	return h, tokens
}

// nativeRegistration adds application_type "native" to a dynamic client
// registration, which mcp-go v1.2.1 does not send: a loopback redirect
// belongs to a native application (RFC 8252), and an authorization server
// that defaults to "web" refuses it (decision 0221).
type nativeRegistration struct{ next http.RoundTripper }

func (n nativeRegistration) RoundTrip(req *http.Request) (*http.Response, error) {
	next := n.next
	if next == nil {
		next = http.DefaultTransport
	}
	if req.Method != http.MethodPost || !strings.HasPrefix(req.Header.Get("Content-Type"), "application/json") || req.Body == nil {
		return next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if json.Unmarshal(body, &m) == nil && m["redirect_uris"] != nil && m["application_type"] == nil {
		m["application_type"] = "native"
		if b, err := json.Marshal(m); err == nil {
			body = b
		}
	}
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return next.RoundTrip(r)
}

// rootResourceMetadata answers mcp-go's request for a server's protected
// resource metadata at the path-based well-known URL
// (/.well-known/oauth-protected-resource/PATH) with the document at the
// root (/.well-known/oauth-protected-resource) when the path-based one is
// not there: RFC 9728 §3.1 and the MCP authorization spec's fallback,
// which mcp-go v1.2.1 does not try (decision 0228). mcp-go's check that
// the document's resource binds to the server's URL still applies: a root
// document names the origin, a prefix of every path on it.
type rootResourceMetadata struct{ next http.RoundTripper }

const resourceMetadataPath = "/.well-known/oauth-protected-resource"

func (r rootResourceMetadata) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil || req.Method != http.MethodGet || resp.StatusCode == http.StatusOK ||
		!strings.HasPrefix(req.URL.Path, resourceMetadataPath+"/") {
		return resp, err
	}
	root := req.Clone(req.Context())
	u := *req.URL
	u.Path, u.RawPath = resourceMetadataPath, ""
	root.URL = &u
	fallback, ferr := r.next.RoundTrip(root)
	if ferr != nil || fallback.StatusCode != http.StatusOK {
		if ferr == nil {
			fallback.Body.Close()
		}
		return resp, nil
	}
	resp.Body.Close()
	return fallback, nil
}

// Config returns mcp-go's OAuth configuration for a service that has
// logged in (rec), with rec's tokens as its TokenStore: what
// transport.WithHTTPOAuth takes. Bind the transport's handler to the
// tokens (GetOAuthHandler) before the first request, so they refresh.
func (s *Store) Config(svc Resource, rec *Record, client *http.Client) (transport.OAuthConfig, *Tokens) {
	tokens := s.TokensFor(*rec)
	return config(svc, rec.Registration, rec.Discovery, rec.Registration.RedirectURI, rec.Scopes, tokens, client), tokens
}
