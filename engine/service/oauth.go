package service

import (
	"slices"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// An OAuth says how chronicle logs in to a remote service that wants OAuth
// (a service's oauth block). The zero OAuth (a bare oauth {}) is enough for a
// server that follows the MCP authorization spec: everything is discovered.
type OAuth struct {
	// ClientID names a client registered with the authorization server in
	// advance; empty means a Client ID Metadata Document (ClientMetadataURL)
	// or dynamic registration.
	ClientID string `json:",omitempty"`
	// ClientSecret is the secret of a confidential pre-registered client: a
	// reference, never its value.
	ClientSecret secret.Value `json:",omitzero"`
	// Scopes are asked for at login; empty means the server's challenge,
	// then the authorization server's scopes_supported.
	Scopes []string `json:",omitempty"`
	// CallbackPort is the fixed loopback port of the redirect; 0 means any
	// free port.
	CallbackPort int `json:",omitempty"`
	// ClientMetadataURL is the https URL of a Client ID Metadata Document
	// used as the client id where the authorization server accepts one.
	ClientMetadataURL string `json:",omitempty"`
}

// Equal reports whether two OAuth settings are the same; secrets are
// compared by reference.
func (o *OAuth) Equal(p *OAuth) bool {
	if o == nil || p == nil {
		return o == p
	}
	return o.ClientID == p.ClientID && o.ClientSecret.Equal(p.ClientSecret) &&
		slices.Equal(o.Scopes, p.Scopes) && o.CallbackPort == p.CallbackPort &&
		o.ClientMetadataURL == p.ClientMetadataURL
}
