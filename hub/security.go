package hub

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// SupportedVersions are the MCP protocol revisions the hub speaks.
var SupportedVersions = []string{"2025-03-26", "2025-06-18", "2025-11-25"}

// MaxBodyBytes limits one request body.
const MaxBodyBytes = 4 << 20

// A Guard applies the transport rules of SPEC §10 to every HTTP request
// before it reaches the MCP handler or the /api endpoints.
type Guard struct {
	// Listen is the address the hub listens on.
	Listen string
	// Token, when set, must be sent as "Authorization: Bearer <token>".
	Token string
	// Hostnames are extra Host names accepted when not on loopback.
	Hostnames []string
}

// Loopback reports whether the guard's listen address is loopback only.
func (g Guard) Loopback() bool { return isLoopbackHost(hostOf(g.Listen)) }

// Check returns the HTTP status and a message for a request that breaks a
// rule, or 0 when it may go on.
func (g Guard) Check(r *http.Request) (int, string) {
	if origin := r.Header.Get("Origin"); origin != "" && !loopbackOrigin(origin) {
		return http.StatusForbidden, "Origin " + origin + " is not allowed: the hub only answers pages served from this machine"
	}
	if !g.hostAllowed(r.Host) {
		return http.StatusForbidden, "Host " + r.Host + " is not allowed"
	}
	if g.Token != "" && !tokenMatches(r.Header.Get("Authorization"), g.Token) {
		return http.StatusUnauthorized, "a bearer token is required"
	}
	if v := r.Header.Get("MCP-Protocol-Version"); v != "" && !supported(v) {
		return http.StatusBadRequest, "unsupported MCP-Protocol-Version " + v + "; supported: " + strings.Join(SupportedVersions, ", ")
	}
	return 0, ""
}

// hostAllowed protects against DNS rebinding: on a loopback listener only
// loopback names are accepted; elsewhere only the listen address itself and
// the configured hostnames.
func (g Guard) hostAllowed(host string) bool {
	name := hostOf(host)
	if g.Loopback() {
		return isLoopbackHost(name)
	}
	if strings.EqualFold(host, g.Listen) || strings.EqualFold(name, hostOf(g.Listen)) {
		return true
	}
	for _, h := range g.Hostnames {
		if strings.EqualFold(name, h) || strings.EqualFold(host, h) {
			return true
		}
	}
	return false
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

func supported(v string) bool {
	for _, s := range SupportedVersions {
		if s == v {
			return true
		}
	}
	return false
}

func loopbackOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return isLoopbackHost(u.Hostname())
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

// Middleware applies the guard and the body limit in front of next.
func (g Guard) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if code, msg := g.Check(r); code != 0 {
			http.Error(w, msg, code)
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		}
		next.ServeHTTP(w, r)
	})
}
