package oauth

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
)

// How a client came to be registered with an authorization server.
const (
	PreRegistered    = "pre-registered"    // client_id in the oauth block
	MetadataDocument = "metadata-document" // client_metadata_url as the client id
	Dynamic          = "dynamic"           // RFC 7591 registration at login
)

// A Record is what one login to one protected resource keeps: the
// registration with its authorization server and the tokens. Its file is
// named after (Issuer, Resource), so a server that moves to another
// authorization server gets a new record and the old one is dropped.
type Record struct {
	// Service is the name of the service that last logged in; URL is the
	// address it reaches, by which a service finds its record.
	Service  string `json:"service"`
	URL      string `json:"url"`
	Issuer   string `json:"issuer"`
	Resource string `json:"resource"`
	// Registration is the client the authorization server knows.
	Registration Registration `json:"registration"`
	// Discovery is where the login found the server's metadata when the
	// paths mcp-go tries itself did not hold it: every later refresh and
	// logout looks there too.
	Discovery Discovery `json:"discovery,omitzero"`
	// Scopes are those asked for at login.
	Scopes []string `json:"scopes,omitempty"`
	// StepUp are the scopes the server asked for in a 403
	// insufficient_scope challenge since (Tokens.StepUp): the next login
	// asks for them too.
	StepUp []string `json:"step_up_scopes,omitempty"`
	// Token is the last token the authorization server gave; nil after a
	// logout or before the first login.
	Token *transport.Token `json:"token,omitempty"`
	// LoginRequired says why the tokens can no longer be used (a refused
	// refresh token); empty while they can.
	LoginRequired string `json:"login_required,omitempty"`
	// Updated is when the record was last written.
	Updated time.Time `json:"updated"`

	// file is where the record was read from ("" for a new one).
	file string
}

// A Registration is a client registered with an authorization server.
type Registration struct {
	Kind     string `json:"kind"`
	ClientID string `json:"client_id"`
	// ClientSecret is a secret the authorization server issued at dynamic
	// registration; a configured client's secret stays a reference in the
	// configuration and is never written here.
	ClientSecret string `json:"client_secret,omitempty"`
	AuthMethod   string `json:"token_endpoint_auth_method,omitempty"`
	// RedirectURI is the loopback redirect registered with the client (its
	// port is the callback port a dynamic registration was made for).
	RedirectURI string `json:"redirect_uri,omitempty"`
}

// A Discovery says where a server's metadata is when it is not where
// mcp-go looks by default (RFC 9728's path-based well-known URL, then the
// authorization server's RFC 8414 and OpenID paths).
type Discovery struct {
	// ResourceMetadata is the protected resource metadata's URL from the
	// server's 401 challenge.
	ResourceMetadata string `json:"resource_metadata,omitempty"`
	// AuthServerMetadata is the authorization server metadata's URL at the
	// server's root, for a server of the 2025-03-26 revision, which has no
	// protected resource metadata.
	AuthServerMetadata string `json:"authorization_server_metadata,omitempty"`
}

// fileName names the record of (issuer, resource): a digest, so any issuer
// and resource make one safe name.
func fileName(issuer, resource string) string {
	sum := sha256.Sum256([]byte(issuer + "\x00" + resource))
	return hex.EncodeToString(sum[:12]) + ".json"
}

// secrets returns every secret value the record holds.
func (r *Record) secrets() []string {
	out := []string{r.Registration.ClientSecret}
	if t := r.Token; t != nil {
		out = append(out, t.AccessToken, t.RefreshToken)
	}
	return out
}

// usable reports whether the record still lets chronicle reach its server
// without a login: not refused, and an access token that has not expired or
// a refresh token to get another.
func (r *Record) usable(now time.Time) bool {
	if r == nil || r.LoginRequired != "" || r.Token == nil {
		return false
	}
	t := r.Token
	return t.RefreshToken != "" || (t.AccessToken != "" && (t.ExpiresAt.IsZero() || now.Before(t.ExpiresAt)))
}
