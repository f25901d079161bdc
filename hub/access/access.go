package access

import (
	"crypto/subtle"
	"mime"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/chronicle-dev/chronicle/hub/wire"
)

// A Guard applies the transport rules of SPEC §10 to every HTTP request
// before it reaches the MCP handler or the /api endpoints: which Host names
// it accepts, which token it asks for, and (through each route's guard)
// what a browser may do.
type Guard struct {
	// Listen is the address the hub listens on.
	Listen string
	// Token is hub { token }: when set, every route but /health and the
	// console's files requires it, as "Authorization: Bearer <token>".
	Token string
	// LocalToken is the token the hub made itself when hub { token } is not
	// set (TokenFile): the management API requires it, and so do the MCP
	// endpoints unless OpenLocal (serve --stdio needs none: it is no HTTP
	// client).
	LocalToken string
	// OpenLocal is hub { local_clients = "open" }: the MCP endpoints
	// answer a loopback client without LocalToken.
	OpenLocal bool
	// TokenFile is where LocalToken is kept, named when a request lacks it.
	TokenFile string
	// Hostnames are extra Host names accepted when not on loopback.
	Hostnames []string
	// Own are the machine's own addresses and name, accepted as Host when
	// the hub listens on every interface (0.0.0.0 or ::).
	Own []string
}

// A Rule is what one route asks of a request beyond an accepted Host
// (routes.go names one per route).
type Rule struct {
	// Name is how the route table's test and docs/api.md call it.
	Name string
	// Token: which Token the route requires.
	Token TokenRule
	// SameOrigin refuses every cross-origin browser request, GET included:
	// a GET that starts work (a stream, listing tools, which starts every
	// upstream) is no safer than a POST. Without it only the unsafe
	// methods are checked (a navigation to the console is a GET from
	// anywhere).
	SameOrigin bool
	// JSON requires a body sent as application/JSON, which a browser
	// cannot send to another origin without a preflight the hub refuses.
	JSON bool
}

// A TokenRule says which token a route requires.
type TokenRule int

const (
	NoToken         TokenRule = iota // none, ever
	ClientToken                      // hub { token }, else the hub's own unless OpenLocal
	ManagementToken                  // hub { token }, else the hub's own (TokenFile)
)

// The guards of the route table.
var (
	HealthRule  = Rule{Name: "health", Token: NoToken}
	ConsoleRule = Rule{Name: "console", Token: NoToken}
	MCPRule     = Rule{Name: "mcp", Token: ClientToken, SameOrigin: true}
	MessageRule = Rule{Name: "mcp-message", Token: ClientToken, SameOrigin: true, JSON: true}
	ReadRule    = Rule{Name: "api-read", Token: ManagementToken, SameOrigin: true}
	ChangeRule  = Rule{Name: "api-change", Token: ManagementToken, SameOrigin: true, JSON: true}
)

// Loopback reports whether the guard's listen address is loopback only.
func (g Guard) Loopback() bool { return isLoopbackHost(hostOf(g.Listen)) }

// crossOrigin is the standard library's cross-origin protection
// (Sec-Fetch-Site, else Origin against Host): only the hub's own origin is
// trusted.
var crossOrigin = http.NewCrossOriginProtection()

// Check returns the HTTP status and a message for a request to a route
// with guard rule that breaks a rule, or 0 when it may go on.
func (g Guard) Check(r *http.Request, rule Rule) (int, string) {
	if !g.hostAllowed(r.Host) {
		return http.StatusForbidden, "Host " + r.Host + " is not allowed"
	}
	probe := r
	if rule.SameOrigin && !UnsafeMethod(r.Method) {
		// CrossOriginProtection lets safe methods through; this route
		// treats them like the rest.
		probe = r.WithContext(r.Context())
		probe.Method = http.MethodPost
	}
	if crossOrigin.Check(probe) != nil {
		return http.StatusForbidden, "a cross-origin request is not allowed: the hub only answers its own console and clients that are not browsers"
	}
	if want := g.tokenFor(rule.Token); want != "" && !tokenMatches(r.Header.Get("Authorization"), want) {
		return http.StatusUnauthorized, g.tokenHint(rule.Token)
	} else if want == "" && g.NeedsToken(rule.Token) {
		return http.StatusUnauthorized, "this hub has no token: start it with chronicle serve, which keeps one in ~/.chronicle/hub.token"
	}
	if rule.JSON && !jsonBody(r) {
		return http.StatusUnsupportedMediaType, "a request that changes something must be sent as Content-Type: application/json"
	}
	return 0, ""
}

// tokenFor returns the token a rule requires, or "" for none.
func (g Guard) tokenFor(rule TokenRule) string {
	if g.NeedsToken(rule) {
		if g.Token != "" {
			return g.Token
		}
		return g.LocalToken
	}
	return ""
}

// NeedsToken reports whether a rule asks for a token with these settings.
func (g Guard) NeedsToken(rule TokenRule) bool {
	switch rule {
	case ManagementToken:
		return true
	case ClientToken:
		return g.Token != "" || !g.OpenLocal
	}
	return false
}

// tokenHint says where the token a request lacked is.
func (g Guard) tokenHint(rule TokenRule) string {
	switch {
	case g.Token == "" && g.TokenFile != "" && rule == ClientToken:
		return "a bearer token is required: send Authorization: Bearer with the token in " + g.TokenFile + ". A hub entry chronicle wrote gets it with chronicle apply; a client chronicle does not configure takes the snippet of the console's \"connect a client\""
	case g.Token == "" && rule == ClientToken:
		return "a bearer token is required: send Authorization: Bearer with this hub's own token (it was started without a token file, so only its API's callers know it)"
	case g.Token == "" && g.TokenFile != "":
		return "a bearer token is required: send Authorization: Bearer with the token in " + g.TokenFile + " (the console's address that chronicle serve prints carries it)"
	}
	return "a bearer token is required: send Authorization: Bearer with the hub token (hub { token } in the configuration)"
}

// Challenge is the WWW-Authenticate header of a 401: a bearer token, with
// no resource_metadata, so that a client that speaks OAuth reports the
// missing token instead of starting a login against the hub (the hub is no
// OAuth resource server; /.well-known/oauth-protected-resource answers 404).
const Challenge = `Bearer realm="chronicle"`

func UnsafeMethod(m string) bool {
	return m != http.MethodGet && m != http.MethodHead && m != http.MethodOptions
}

func jsonBody(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "application/json"
}

// hostAllowed protects against DNS rebinding: on a loopback listener only
// loopback names are accepted; on every interface (with a token) the
// loopback names, the machine's own addresses and the configured hostnames;
// on one other address that address and the configured hostnames.
func (g Guard) hostAllowed(host string) bool {
	name := hostOf(host)
	if g.Loopback() {
		return isLoopbackHost(name)
	}
	if strings.EqualFold(host, g.Listen) || strings.EqualFold(name, hostOf(g.Listen)) {
		return true
	}
	if g.EveryInterface() {
		if isLoopbackHost(name) {
			return true
		}
		for _, own := range g.Own {
			if strings.EqualFold(name, own) {
				return true
			}
		}
	}
	for _, h := range g.Hostnames {
		if strings.EqualFold(name, h) || strings.EqualFold(host, h) {
			return true
		}
	}
	return false
}

// EveryInterface reports whether the guard listens on all interfaces.
func (g Guard) EveryInterface() bool {
	h := hostOf(g.Listen)
	if h == "" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsUnspecified()
}

// OwnAddresses returns the machine's own addresses and host name, which a
// hub listening on every interface accepts as Host.
func OwnAddresses() []string {
	var out []string
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				out = append(out, ipn.IP.String())
			}
		}
	}
	if name, err := os.Hostname(); err == nil && name != "" {
		out = append(out, name)
	}
	return out
}

// StartError returns why the hub must not start with these settings: off
// loopback it needs a token.
func (g Guard) StartError() string {
	if !g.Loopback() && g.Token == "" {
		return "the hub listens on " + g.Listen + ", which other machines can reach, and has no token: set hub { token = secret(\"env:CHRONICLE_HUB_TOKEN\") }"
	}
	return ""
}

func tokenMatches(header, token string) bool {
	const prefix = "Bearer "
	if len(header) < len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(header[len(prefix):]), []byte(token)) == 1
}

// hostOf returns the host part of host[:port], without brackets.
func hostOf(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// ProtectMCP serves next behind the rules of the hub's /mcp with g's
// settings (Host, Origin, the token of clients, the body limit): chronicle
// chronova --http uses it, so that its /mcp is open to no more than the
// hub's.
func (g Guard) ProtectMCP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.Serve(w, r, MCPRule, next)
	})
}

// Serve serves next when r keeps rule, with the body limit, else answers
// why not.
func (g Guard) Serve(w http.ResponseWriter, r *http.Request, rule Rule, next http.Handler) {
	if code, msg := g.Check(r, rule); code != 0 {
		if code == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", Challenge)
		}
		wire.WriteError(w, code, msg)
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, wire.MaxBodyBytes)
	}
	next.ServeHTTP(w, r)
}
