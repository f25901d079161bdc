package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// A Login logs chronicle in to one service: discovery, a registration,
// the authorization request (PKCE S256, state, RFC 8707 resource) with a
// loopback redirect on 127.0.0.1, the code exchange, and the record.
type Login struct {
	Store      *Store
	Service    Resource
	HTTPClient *http.Client
	// Open shows the authorization URL: opens the browser, prints it, or
	// (tests) follows it with an HTTP client.
	Open func(authURL string) error
	// Paste, when set, is read for the redirected URL the user pastes,
	// from a browser that cannot reach this machine's loopback (SSH).
	Paste io.Reader
}

// Run performs the login and returns the record it wrote.
func (l *Login) Run(ctx context.Context) (*Record, error) {
	svc := l.Service
	old, err := l.Store.Records(svc.URL)
	if err != nil {
		return nil, err
	}
	port := svc.OAuth.CallbackPort
	if port == 0 && len(old) > 0 {
		// A dynamic registration holds its redirect URI: keep its port.
		port = redirectPort(old[len(old)-1].Registration)
	}
	ln, redirect, err := listen(port)
	if err != nil {
		return nil, err
	}
	defer ln.Close()

	challenge := l.probe(ctx)
	d := l.discovery(ctx, challenge)
	disco := newHandler(svc, Registration{}, d, redirect, nil, transport.NewMemoryTokenStore(), l.HTTPClient)
	md, err := disco.GetServerMetadata(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: discovering its authorization server: %w", svc.URL, err)
	}
	resource := resourceOf(ctx, disco, svc.URL)
	extra := l.serverExtras(ctx, md.Issuer, d)

	var prior *Record
	for _, r := range old {
		if r.Issuer != md.Issuer {
			// The server moved to another authorization server: its old
			// registration and tokens mean nothing there.
			if err := l.Store.remove(r); err != nil {
				return nil, err
			}
			continue
		}
		prior = r
	}

	scopes := withStepUp(l.scopes(ctx, challenge, d, md), prior)

	tmpl := Record{Service: svc.Name, URL: svc.URL, Issuer: md.Issuer, Resource: resource, Discovery: d, Scopes: scopes}
	tokens := l.Store.TokensFor(tmpl)
	tokens.login = true
	reg := l.registration(prior, redirect, extra.ClientIDMetadataDocuments)
	h := newHandler(svc, reg, d, redirect, scopes, tokens, l.HTTPClient)
	tokens.Bind(h)
	if reg.Kind == Dynamic && reg.ClientID == "" {
		if err := h.RegisterClient(ctx, clientName); err != nil {
			return nil, fmt.Errorf("%s: registering chronicle with %s: %w", svc.URL, md.Issuer, err)
		}
		reg.ClientID, reg.ClientSecret, reg.AuthMethod = h.GetClientID(), h.GetClientSecret(), h.GetTokenEndpointAuthMethod()
		l.Store.Masker.Add(reg.ClientSecret)
	}
	tokens.template.Registration = reg

	verifier, err := transport.GenerateCodeVerifier()
	if err != nil {
		return nil, err
	}
	state, err := transport.GenerateState()
	if err != nil {
		return nil, err
	}
	authURL, err := h.GetAuthorizationURL(ctx, state, transport.GenerateCodeChallenge(verifier))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", svc.URL, err)
	}
	cb, err := await(ctx, ln, func() error { return l.Open(authURL) }, l.Paste)
	if err != nil {
		return nil, err
	}
	code, err := cb.check(state, md.Issuer, extra.IssInResponse)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", svc.Name, err)
	}
	lk, err := l.Store.lock(ctx, md.Issuer, resource)
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	if err := h.ProcessAuthorizationResponse(ctx, code, state, verifier); err != nil {
		return nil, fmt.Errorf("%s: exchanging the code at %s: %w", svc.Name, md.Issuer, err)
	}
	path := l.Store.path(md.Issuer, resource)
	for _, r := range old {
		// The same issuer's record under another name (another resource,
		// or a file copied in by hand) is replaced by the new one.
		if r.Issuer == md.Issuer && r.file != path {
			if err := l.Store.remove(r); err != nil {
				return nil, err
			}
		}
	}
	return l.Store.load(path)
}

// registration returns the client to log in as: the configured one, the
// one registered before with this issuer for this redirect, a Client ID
// Metadata Document where the authorization server accepts one (cimd),
// or (with an empty id) one to register now.
func (l *Login) registration(prior *Record, redirect string, cimd bool) Registration {
	o := l.Service.OAuth
	switch {
	case o.ClientID != "":
		return Registration{Kind: PreRegistered, ClientID: o.ClientID, RedirectURI: redirect}
	case prior != nil && prior.Registration.Kind == Dynamic && prior.Registration.RedirectURI == redirect:
		return prior.Registration
	case o.ClientMetadataURL != "" && cimd:
		return Registration{Kind: MetadataDocument, ClientID: o.ClientMetadataURL, RedirectURI: redirect}
	}
	return Registration{Kind: Dynamic, RedirectURI: redirect}
}

// probe sends the server an unauthenticated initialize, as a client's
// first request would be, and returns its 401 answer (headers only), nil
// for any other: its challenge names the protected resource metadata
// (RFC 9728's resource_metadata, given to mcp-go's discovery, which checks
// its origin) and may name the scope. A server that lets initialize in
// without a token challenges the first request after it: then a
// tools/list is sent too, and its 401 is the challenge (the scope a client
// of its tools needs first; a step-up asks for more, decision 0224).
func (l *Login) probe(ctx context.Context) *http.Response {
	if resp := l.probeWith(ctx, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"chronicle","version":"0"}}}`); resp != nil {
		return resp
	}
	return l.probeWith(ctx, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`)
}

// probeWith sends body without a token and returns the answer when it is
// a 401, nil otherwise.
func (l *Login) probeWith(ctx context.Context, body string) *http.Response {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.Service.URL, strings.NewReader(body))
	if err != nil {
		return nil
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := l.client().Do(req)
	if err != nil {
		return nil
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return nil
	}
	return resp
}

func (l *Login) client() *http.Client {
	if l.HTTPClient != nil {
		return l.HTTPClient
	}
	return &http.Client{Timeout: 30 * time.Second}
}

// scopes returns the scopes to ask for, in the MCP spec's order of
// preference: the oauth block's, the challenge's scope, the protected
// resource metadata's scopes_supported, the authorization server's; none
// when no one names any (the scope parameter is then left out).
func (l *Login) scopes(ctx context.Context, challenge *http.Response, d Discovery, md *transport.AuthServerMetadata) []string {
	if s := l.Service.OAuth.Scopes; len(s) > 0 {
		return s
	}
	var headers []string
	if challenge != nil {
		headers = challenge.Header.Values("WWW-Authenticate")
	}
	if s := challengeParam(headers, "scope"); s != "" {
		return strings.Fields(s)
	}
	if s := l.resourceScopes(ctx, d.ResourceMetadata); len(s) > 0 {
		return s
	}
	return md.ScopesSupported
}

// resourceScopes reads scopes_supported from the protected resource
// metadata (at prm, else at the path-based well-known URL of the server,
// else at its root),
// which mcp-go reads but does not keep.
func (l *Login) resourceScopes(ctx context.Context, prm string) []string {
	var doc struct {
		ScopesSupported []string `json:"scopes_supported"`
	}
	if prm != "" {
		if !l.fetch(ctx, prm, &doc) {
			return nil
		}
		return doc.ScopesSupported
	}
	for _, withPath := range []bool{true, false} {
		if l.fetch(ctx, l.wellKnown("oauth-protected-resource", withPath), &doc) {
			return doc.ScopesSupported
		}
	}
	return nil
}

// discovery finds the server's metadata where mcp-go does not look by
// itself: the challenge's resource_metadata on the server's own origin
// (mcp-go takes it only from a 401 it received itself, which a refresh
// never sees); or, when the path-based well-known URL holds no protected
// resource metadata, a 2025-03-26 server's authorization server metadata
// at its root (mcp-go looks under the server's path). Protected resource
// metadata found only at the server's root is left to mcp-go, whose HTTP
// client falls back to it (rootResourceMetadata, decision 0228): given
// its URL instead, mcp-go would require it to name the server's whole URL
// as its resource.
func (l *Login) discovery(ctx context.Context, challenge *http.Response) Discovery {
	if challenge != nil {
		if prm := challengeParam(challenge.Header.Values("WWW-Authenticate"), "resource_metadata"); prm != "" && l.sameOrigin(prm) {
			return Discovery{ResourceMetadata: prm}
		}
	}
	var doc map[string]any
	for _, withPath := range []bool{true, false} {
		// At the root too: mcp-go is given that fallback (rootResourceMetadata).
		if l.fetch(ctx, l.wellKnown("oauth-protected-resource", withPath), &doc) {
			return Discovery{}
		}
	}
	for _, suffix := range []string{"oauth-authorization-server", "openid-configuration"} {
		if root := l.wellKnown(suffix, false); l.fetch(ctx, root, &doc) {
			return Discovery{AuthServerMetadata: root}
		}
	}
	return Discovery{}
}

// wellKnown returns the server's well-known URL for suffix, with the
// server's path after it (RFC 9728's path insertion) or at the root.
func (l *Login) wellKnown(suffix string, withPath bool) string {
	u, err := url.Parse(l.Service.URL)
	if err != nil {
		return ""
	}
	out := u.Scheme + "://" + u.Host + "/.well-known/" + suffix
	if withPath {
		out += strings.TrimSuffix(u.EscapedPath(), "/")
	}
	return out
}

// sameOrigin reports whether u is on the server's scheme and host.
func (l *Login) sameOrigin(u string) bool {
	a, err1 := url.Parse(u)
	b, err2 := url.Parse(l.Service.URL)
	return err1 == nil && err2 == nil && strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// fetch decodes the JSON document at u into v; false when there is none.
func (l *Login) fetch(ctx context.Context, u string, v any) bool {
	if u == "" {
		return false
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false
	}
	req.Header.Set("Accept", "application/json")
	resp, err := l.client().Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	return resp.StatusCode == http.StatusOK && json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v) == nil
}

// resourceOf returns the RFC 8707 resource mcp-go discovered for h, which
// it keeps to itself: it is the resource parameter of an authorization
// URL (decision 0221). Without one, the server's URL names it.
func resourceOf(ctx context.Context, h *transport.OAuthHandler, serverURL string) string {
	defer h.SetExpectedState("")
	u, err := h.GetAuthorizationURL(ctx, "probe", "")
	if err != nil {
		return serverURL
	}
	if p, err := url.Parse(u); err == nil {
		if r := p.Query().Get("resource"); r != "" {
			return r
		}
	}
	return serverURL
}

// redirectPort returns the port of reg's loopback redirect, 0 for none.
func redirectPort(reg Registration) int {
	if reg.Kind != Dynamic {
		return 0
	}
	u, err := url.Parse(reg.RedirectURI)
	if err != nil {
		return 0
	}
	p, _ := strconv.Atoi(u.Port())
	return p
}

// challengeParam returns the value of param in a Bearer challenge.
func challengeParam(headers []string, param string) string {
	for _, h := range headers {
		i := strings.Index(h, param+"=")
		if i < 0 || (i > 0 && h[i-1] != ' ' && h[i-1] != ',') {
			continue
		}
		v := h[i+len(param)+1:]
		if strings.HasPrefix(v, `"`) {
			if j := strings.Index(v[1:], `"`); j >= 0 {
				return v[1 : j+1]
			}
			continue
		}
		if j := strings.IndexAny(v, ", "); j >= 0 {
			v = v[:j]
		}
		return v
	}
	return ""
}

// serverExtras are what the authorization server's metadata says beyond
// the fields mcp-go's metadata type keeps.
type serverExtras struct {
	Issuer string `json:"issuer"`
	// IssInResponse: the redirect always names the issuer (RFC 9207).
	IssInResponse bool `json:"authorization_response_iss_parameter_supported"`
	// ClientIDMetadataDocuments: a URL is accepted as a client id.
	ClientIDMetadataDocuments bool `json:"client_id_metadata_document_supported"`
}

// serverExtras reads the issuer's metadata again, from where discovery
// found it (the URL recorded, else RFC 8414's and OpenID's paths for the
// issuer), for the fields mcp-go leaves out; a document naming another
// issuer is not used.
func (l *Login) serverExtras(ctx context.Context, issuer string, d Discovery) serverExtras {
	var candidates []string
	if d.AuthServerMetadata != "" {
		candidates = append(candidates, d.AuthServerMetadata)
	}
	if u, err := url.Parse(issuer); err == nil {
		root, path := u.Scheme+"://"+u.Host, strings.TrimSuffix(u.EscapedPath(), "/")
		candidates = append(candidates, root+"/.well-known/oauth-authorization-server"+path,
			root+"/.well-known/openid-configuration"+path, strings.TrimSuffix(issuer, "/")+"/.well-known/openid-configuration")
	}
	for _, c := range candidates {
		var x serverExtras
		if l.fetch(ctx, c, &x) && x.Issuer == issuer {
			return x
		}
	}
	return serverExtras{}
}
