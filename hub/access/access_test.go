package access

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func req(host, origin, auth, version string) *http.Request {
	r := httptest.NewRequest("POST", "http://"+host+"/mcp", nil)
	r.Host = host
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	if auth != "" {
		r.Header.Set("Authorization", auth)
	}
	if version != "" {
		r.Header.Set("MCP-Protocol-Version", version)
	}
	return r
}

func fetchSite(r *http.Request, site string) *http.Request {
	r.Header.Set("Sec-Fetch-Site", site)
	return r
}

func TestGuardRules(t *testing.T) {
	// The Host and Origin rules, on a hub whose MCP endpoints need no
	// token (local_clients = "open"); the token rule follows.
	loop := Guard{Listen: "127.0.0.1:7311", OpenLocal: true}
	own := Guard{Listen: "127.0.0.1:7311", LocalToken: "l0cal-token-abcdef", TokenFile: "/home/u/.chronicle/hub.token"}
	open := Guard{Listen: "0.0.0.0:7311", Token: "s3cret-token", Hostnames: []string{"hub.lan"}, Own: []string{"192.168.1.20", "fe80::1", "devbox"}}
	lan := Guard{Listen: "192.168.1.20:7311", Token: "s3cret-token"}
	const tok = "Bearer s3cret-token"
	tests := []struct {
		name string
		g    Guard
		r    *http.Request
		want int
	}{
		{"loopback ok", loop, req("127.0.0.1:7311", "", "", "2025-11-25"), 0},
		{"localhost, same origin", loop, req("localhost:7311", "http://localhost:7311", "", ""), 0},
		{"loopback origin on another port", loop, req("127.0.0.1:7311", "http://127.0.0.1:8000", "", ""), 403},
		{"localhost origin on another port", loop, req("localhost:7311", "http://localhost:5173", "", ""), 403},
		{"foreign origin", loop, req("127.0.0.1:7311", "https://evil.example", "", ""), 403},
		{"rebinding host", loop, req("evil.example:7311", "", "", ""), 403},
		{"open without token", open, req("0.0.0.0:7311", "", "", ""), 401},
		{"open wrong token", open, req("0.0.0.0:7311", "", "Bearer nope", ""), 401},
		{"open right token", open, req("0.0.0.0:7311", "", "Bearer s3cret-token", ""), 0},
		{"open listed hostname", open, req("hub.lan:7311", "", "Bearer s3cret-token", ""), 0},
		{"open other hostname", open, req("other.lan:7311", "", "Bearer s3cret-token", ""), 403},
		{"open foreign origin", open, req("hub.lan:7311", "https://evil.example", tok, ""), 403},
		{"open origin of another accepted name", open, req("hub.lan:7311", "http://devbox:7311", tok, ""), 403},
		{"open same origin as host", open, req("hub.lan:7311", "http://hub.lan:7311", tok, ""), 0},
		{"open same origin, other port", open, req("hub.lan:7311", "http://hub.lan:8080", tok, ""), 403},
		// Without Sec-Fetch-Site the standard library compares Origin with
		// Host, which has no scheme; every browser it matters for sends
		// Sec-Fetch-Site.
		{"open same origin, other scheme", open, fetchSite(req("hub.lan:7311", "https://hub.lan:7311", tok, ""), "cross-site"), 403},
		{"same-site page on another port", loop, fetchSite(req("127.0.0.1:7311", "http://127.0.0.1:8999", "", ""), "same-site"), 403},
		{"the hub's own page", loop, fetchSite(req("127.0.0.1:7311", "http://127.0.0.1:7311", "", ""), "same-origin"), 0},
		{"a typed address", loop, fetchSite(req("127.0.0.1:7311", "", "", ""), "none"), 0},
		{"open loopback origin", open, req("hub.lan:7311", "http://localhost:5173", tok, ""), 403},
		{"open localhost host", open, req("localhost:7311", "", tok, ""), 0},
		{"open 127.0.0.1 host", open, req("127.0.0.1:7311", "", tok, ""), 0},
		{"open [::1] host", open, req("[::1]:7311", "", tok, ""), 0},
		{"open own address", open, req("192.168.1.20:7311", "http://192.168.1.20:7311", tok, ""), 0},
		{"open own ipv6 address", open, req("[fe80::1]:7311", "", tok, ""), 0},
		{"open own host name", open, req("devbox:7311", "", tok, ""), 0},
		{"open ipv6 any", Guard{Listen: "[::]:7311", Token: "s3cret-token"}, req("localhost:7311", "", tok, ""), 0},
		{"lan address only", lan, req("192.168.1.20:7311", "", tok, ""), 0},
		{"lan address: no loopback names", lan, req("localhost:7311", "", tok, ""), 403},
		{"null origin", loop, req("127.0.0.1:7311", "null", "", ""), 403},
		{"loopback token required when set", Guard{Listen: "127.0.0.1:1", Token: "t0k3n-abcdef"}, req("127.0.0.1:1", "", "", ""), 401},
		{"loopback token required when set, even open", Guard{Listen: "127.0.0.1:1", Token: "t0k3n-abcdef", OpenLocal: true}, req("127.0.0.1:1", "", "", ""), 401},
		{"loopback without the hub's own token", own, req("127.0.0.1:7311", "", "", "2025-11-25"), 401},
		{"loopback with a wrong token", own, req("127.0.0.1:7311", "", "Bearer nope", ""), 401},
		{"loopback with the hub's own token", own, req("127.0.0.1:7311", "", "Bearer l0cal-token-abcdef", ""), 0},
		{"a hub with no token of its own", Guard{Listen: "127.0.0.1:7311"}, req("127.0.0.1:7311", "", "", ""), 401},
	}
	for _, tt := range tests {
		if got, msg := tt.g.Check(tt.r, MCPRule); got != tt.want {
			t.Errorf("%s: status %d (%s), want %d", tt.name, got, msg, tt.want)
		}
	}
	if _, msg := own.Check(req("127.0.0.1:7311", "", "", ""), MCPRule); !strings.Contains(msg, own.TokenFile) || !strings.Contains(msg, "chronicle apply") {
		t.Errorf("the 401 of a loopback client without the token: %q, want the file and chronicle apply named", msg)
	}
	if open.StartError() != "" || (Guard{Listen: "0.0.0.0:7311"}).StartError() == "" || loop.StartError() != "" {
		t.Fatal("a hub off loopback must refuse to start without a token, and only then")
	}
}
