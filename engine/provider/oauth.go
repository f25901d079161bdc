package provider

import (
	"strings"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// An OAuthSupport says how a tool logs in by itself to a remote MCP server
// that wants OAuth, when a link writes the server straight into the tool's
// file (not through the hub): whether it logs in on its own and which
// fields of its entry hold a service's oauth settings. The zero value is a
// tool that does not (or is not known to): such a service reaches it
// through the hub. Each tool's row is in providers' one table (oauth.go),
// with the vendor page it comes from.
type OAuthSupport struct {
	// Discovers says the tool logs in on its own when the server answers
	// 401 (protected resource metadata, dynamic registration, a browser):
	// an entry with the server's url is enough for a bare oauth {}.
	Discovers bool
	// Key is the entry's object that holds the fields below ("oauth";
	// Cursor's "auth"); empty when the tool has none.
	Key string
	// ClientID, CallbackPort and Scopes name the fields under Key for a
	// pre-registered client's id, the fixed loopback port of its redirect
	// (an integer) and the scopes to ask for; empty for a field the tool
	// does not have.
	ClientID, CallbackPort, Scopes string
	// ScopesJoined writes the scopes as one space-separated string (Claude
	// Code's oauth.scopes) instead of a list.
	ScopesJoined bool
}

// An OAuthTable holds each tool's OAuthSupport by its name; a tool that is
// not in it uses the hub for OAuth services.
type OAuthTable map[string]OAuthSupport

// Fields returns the entry keys that give a tool with support s the oauth
// settings o (nil when the tool needs none), and the settings it cannot
// hold, in the configuration's words: "client_secret" (no tool's file gets
// a secret: a tool that wants one inline uses the hub), "client_id",
// "callback_port" (with a client_id: the port the client's registered
// redirect names; without one it is chronicle's own), "scopes", or
// "login" for a tool that does not log in by itself. A client metadata
// document URL is chronicle's own client id, never a tool's: it is not
// written.
func (s OAuthSupport) Fields(o *service.OAuth) (Extra, []string) {
	if o == nil {
		return nil, nil
	}
	if !s.Discovers {
		return nil, []string{"login"}
	}
	var missing []string
	fields := map[string]any{}
	set := func(setting, field string, on bool, v any) {
		if !on {
			return
		}
		if field == "" || s.Key == "" {
			missing = append(missing, setting)
			return
		}
		fields[field] = v
	}
	if !o.ClientSecret.IsZero() {
		missing = append(missing, "client_secret")
	}
	set("client_id", s.ClientID, o.ClientID != "", o.ClientID)
	set("callback_port", s.CallbackPort, o.ClientID != "" && o.CallbackPort != 0, float64(o.CallbackPort))
	var scopes any = toAny(o.Scopes)
	if s.ScopesJoined {
		scopes = strings.Join(o.Scopes, " ")
	}
	set("scopes", s.Scopes, len(o.Scopes) > 0, scopes)
	if len(missing) > 0 || len(fields) == 0 {
		return nil, missing
	}
	return Extra{s.Key: fields}, nil
}

// toAny returns list as the []any a decoded JSON array is.
func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, v := range list {
		out[i] = v
	}
	return out
}
