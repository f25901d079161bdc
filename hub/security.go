package hub

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// SupportedVersions are the MCP protocol revisions the hub speaks.
// HTTP and stdio accept the same list; 2026-07-28 is stateless.
var SupportedVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

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
	// Own are the machine's own addresses and name, accepted as Host when
	// the hub listens on every interface (0.0.0.0 or ::).
	Own []string
}

// Loopback reports whether the guard's listen address is loopback only.
func (g Guard) Loopback() bool { return isLoopbackHost(hostOf(g.Listen)) }

// Check returns the HTTP status and a message for a request that breaks a
// rule, or 0 when it may go on.
func (g Guard) Check(r *http.Request) (int, string) {
	if !g.hostAllowed(r.Host) {
		return http.StatusForbidden, "Host " + r.Host + " is not allowed"
	}
	if origin := r.Header.Get("Origin"); origin != "" && !loopbackOrigin(origin) && !sameOrigin(origin, r) {
		return http.StatusForbidden, "Origin " + origin + " is not allowed: the hub only answers pages served from this machine or from the hub itself"
	}
	if g.Token != "" && !tokenMatches(r.Header.Get("Authorization"), g.Token) {
		return http.StatusUnauthorized, "a bearer token is required"
	}
	return 0, ""
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
	if g.everyInterface() {
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

// everyInterface reports whether the guard listens on all interfaces.
func (g Guard) everyInterface() bool {
	h := hostOf(g.Listen)
	if h == "" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsUnspecified()
}

// sameOrigin reports whether origin is the hub itself as the request
// reached it: the console served at an accepted Host (a LAN address with a
// token) calls the API from that same origin.
func sameOrigin(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return u.Scheme == scheme && strings.EqualFold(withPort(u.Host, u.Scheme), withPort(r.Host, scheme))
}

// withPort returns host:port with the scheme's default port made explicit.
func withPort(hostport, scheme string) string {
	if _, _, err := net.SplitHostPort(hostport); err == nil {
		return hostport
	}
	port := "80"
	if scheme == "https" {
		port = "443"
	}
	return net.JoinHostPort(strings.Trim(hostport, "[]"), port)
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
