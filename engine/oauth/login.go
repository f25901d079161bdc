package oauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
)

// A Login logs chronicle in to one service: discovery, a registration,
// the authorization request (PKCE S256, state, RFC 8707 resource) with a
// loopback redirect on 127.0.0.1, the code exchange, and the record.
type Login struct {
	Store      *Store
	Service    Service
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

	challengeScope := l.probe(ctx)
	disco := newHandler(svc, Registration{}, redirect, nil, transport.NewMemoryTokenStore(), l.HTTPClient)
	md, err := disco.GetServerMetadata(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: discovering its authorization server: %w", svc.URL, err)
	}
	resource := resourceOf(ctx, disco, svc.URL)

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

	scopes := svc.OAuth.Scopes
	if len(scopes) == 0 && challengeScope != "" {
		scopes = strings.Fields(challengeScope)
	}
	if len(scopes) == 0 {
		scopes = md.ScopesSupported
	}

	tmpl := Record{Service: svc.Name, URL: svc.URL, Issuer: md.Issuer, Resource: resource, Scopes: scopes}
	tokens := l.Store.TokensFor(tmpl)
	tokens.login = true
	reg := l.registration(prior, redirect)
	h := newHandler(svc, reg, redirect, scopes, tokens, l.HTTPClient)
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
	code, err := cb.check(state, md.Issuer)
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
// Metadata Document, or (with an empty id) one to register now.
func (l *Login) registration(prior *Record, redirect string) Registration {
	o := l.Service.OAuth
	switch {
	case o.ClientID != "":
		return Registration{Kind: PreRegistered, ClientID: o.ClientID, RedirectURI: redirect}
	case prior != nil && prior.Registration.Kind == Dynamic && prior.Registration.RedirectURI == redirect:
		return prior.Registration
	case o.ClientMetadataURL != "":
		return Registration{Kind: MetadataDocument, ClientID: o.ClientMetadataURL, RedirectURI: redirect}
	}
	return Registration{Kind: Dynamic, RedirectURI: redirect}
}

// probe sends the server an unauthenticated initialize, as a client's
// first request would be, and feeds its 401 challenge to discovery
// (RFC 9728's resource_metadata); it returns the challenge's scope. A
// server that answers otherwise leaves discovery to the well-known paths.
func (l *Login) probe(ctx context.Context) string {
	client := l.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	body := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"chronicle","version":"0"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.Service.URL, strings.NewReader(body))
	if err != nil {
		return ""
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return ""
	}
	return challengeParam(resp.Header.Values("WWW-Authenticate"), "scope")
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
