package hub

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/hub/access"
)

// concrete turns a route's pattern into a method and a path the console
// hub answers.
func concrete(pattern string) (method, path string) {
	method, path, _ = strings.Cut(pattern, " ")
	r := strings.NewReplacer("{$}", "", "{file}", "app.js", "{name}", "alpha")
	if strings.HasPrefix(path, "/api/skills/") {
		r = strings.NewReplacer("{name}", "review")
	}
	return method, r.Replace(path)
}

// bodyOf is a valid JSON body for a route that takes one.
func bodyOf(method, path string) string {
	switch {
	case path == "/api/mcp/call" || path == "/api/call":
		return `{"name":"alpha__echo","arguments":{"text":"x"}}`
	case strings.HasSuffix(path, "/restore"):
		return `{"id":"1"}`
	case strings.HasSuffix(path, "/meta"):
		return `{"tags":["go"],"rating":3}`
	case method == "POST":
		return `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	}
	return ""
}

// TestEveryRouteIsGuarded walks the one route table: every row's guard
// refuses what it must — a request from another origin (a page on another
// loopback port, as Chromium sends it), a request without the token where
// the row needs one, a body that is not JSON where the row needs JSON —
// and no answer of any route names another origin in
// Access-Control-Allow-Origin (consoleHub.do checks that on every answer).
func TestEveryRouteIsGuarded(t *testing.T) {
	c := startConsoleHub(t, "")
	rows := c.hub.transport.Routes()
	if len(rows) < 25 {
		t.Fatalf("the route table has %d rows", len(rows))
	}
	seen := map[string]bool{}
	for _, rt := range rows {
		if seen[rt.Pattern] {
			t.Errorf("%s is in the table twice", rt.Pattern)
		}
		seen[rt.Pattern] = true
		method, path := concrete(rt.Pattern)
		body := bodyOf(method, path)
		ct := ""
		if body != "" {
			ct = "application/json"
		}
		// A page on another loopback port.
		code, _, _ := c.do(t, method, path, ct, body, "Origin", "http://127.0.0.1:8999", "Sec-Fetch-Site", "same-site")
		switch {
		case rt.Rule.SameOrigin || access.UnsafeMethod(method):
			if code != http.StatusForbidden {
				t.Errorf("%s from another origin: %d, want 403", rt.Pattern, code)
			}
		case code == http.StatusForbidden:
			t.Errorf("%s from another origin: 403, but its guard (%s) lets navigations in", rt.Pattern, rt.Rule.Name)
		}
		// Without the token. (GET /sse would answer with a stream that
		// never ends: TestLegacySSEServesClientsThatAreNotBrowsers reads it.)
		if rt.Pattern == "GET /sse" {
			continue
		}
		code, _, _ = c.do(t, method, path, ct, body, "Authorization", "")
		if needs := rt.Rule.Token != access.NoToken; needs != (code == http.StatusUnauthorized) {
			t.Errorf("%s without the token: %d (guard %s)", rt.Pattern, code, rt.Rule.Name)
		}
		// A body a browser may send anywhere without a preflight.
		if access.UnsafeMethod(method) {
			code, _, _ = c.do(t, method, path, "text/plain", body)
			if rt.Rule.JSON != (code == http.StatusUnsupportedMediaType) {
				t.Errorf("%s as text/plain: %d (guard %s)", rt.Pattern, code, rt.Rule.Name)
			}
		}
	}
	for _, p := range []string{"GET /mcp", "POST /mcp", "DELETE /mcp", "GET /sse", "POST /message", "POST /api/call", "GET /api/tools", "GET /health"} {
		if !seen[p] {
			t.Errorf("no row for %s", p)
		}
	}
	// What the table does not name is not served.
	for _, mp := range [][2]string{{"PUT", "/mcp"}, {"POST", "/sse"}, {"GET", "/message"}, {"GET", "/api/call"}, {"POST", "/api/tools"}, {"GET", "/api/unknown"}} {
		if code, _, _ := c.do(t, mp[0], mp[1], "application/json", "{}"); code != http.StatusMethodNotAllowed && code != http.StatusNotFound {
			t.Errorf("%s %s: %d, want 404 or 405", mp[0], mp[1], code)
		}
	}
}

// TestBrowserAttacksAreRefused replays, as Chromium sends them, the
// requests of a page on another loopback port that the hub used to serve:
// an EventSource on /sse (answered Access-Control-Allow-Origin: *), a
// no-cors text/plain POST to /message and to /api/call, and an <img> of
// /api/tools (no Origin at all), which started every upstream. None starts
// a session, a call or an upstream. The real browser's run of the same
// page is cmd/chronicle's TestBrowserAttacksOnTheHub.
func TestBrowserAttacksAreRefused(t *testing.T) {
	c := startConsoleHub(t, "")
	page := []string{"Origin", "http://127.0.0.1:8999", "Sec-Fetch-Site", "same-site", "Authorization", ""}
	if code, _, hdr := c.do(t, "GET", "/sse", "", "", append(page, "Accept", "text/event-stream", "Sec-Fetch-Mode", "cors")...); code != 403 || hdr.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("EventSource on /sse from another port: %d", code)
	}
	if code, _, _ := c.do(t, "POST", "/message?sessionId=x", "text/plain", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "Authorization", ""); code != 401 {
		t.Errorf("text/plain POST to /message without a token: %d, want 401", code)
	}
	if code, _, _ := c.do(t, "POST", "/message?sessionId=x", "text/plain", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); code != 415 {
		t.Errorf("text/plain POST to /message with the token: %d, want 415", code)
	}
	call := `{"name":"alpha__echo","arguments":{"text":"x"}}`
	if code, _, _ := c.do(t, "POST", "/api/call", "text/plain", call, append(page, "Sec-Fetch-Mode", "no-cors")...); code != 403 {
		t.Errorf("no-cors POST to /api/call from another port: %d, want 403", code)
	}
	if code, _, _ := c.do(t, "POST", "/api/call", "text/plain", call, "Authorization", ""); code != 401 {
		t.Errorf("text/plain POST to /api/call without a token: %d, want 401", code)
	}
	if code, _, _ := c.do(t, "POST", "/api/call", "application/json", call, "Origin", "http://127.0.0.1:8000"); code != 403 {
		t.Errorf("JSON POST to /api/call with a loopback Origin on another port: %d, want 403", code)
	}
	// <img src>: no Origin; Chromium says no-cors, cross-site or same-site.
	if code, _, _ := c.do(t, "GET", "/api/tools", "", "", "Sec-Fetch-Site", "cross-site", "Sec-Fetch-Mode", "no-cors", "Sec-Fetch-Dest", "image", "Authorization", ""); code != 403 {
		t.Errorf("<img> of /api/tools: %d, want 403", code)
	}
	// Another local user's curl: no browser headers, no token.
	if code, body, _ := c.do(t, "GET", "/api/tools", "", "", "Authorization", ""); code != 401 || !strings.Contains(body, "bearer token") {
		t.Errorf("GET /api/tools without the token: %d %s", code, body)
	}
	if n := len(c.hub.clients.List()); n != 0 {
		t.Errorf("the refused requests left %d sessions", n)
	}
	if kids := c.hub.Status()["children"].([]int); len(kids) != 0 {
		t.Errorf("the refused requests started upstreams %v", kids)
	}
	if logs := getJSON(t, c.url+"/api/log"); strings.Contains(logs, "tools/call") {
		t.Errorf("a refused request reached the call path:\n%.800s", logs)
	}
}

// TestLegacySSEServesClientsThatAreNotBrowsers: /sse still serves a
// 2024-11-05 client (no Origin, no token on loopback), and its stream
// names no origin it trusts but the hub's own.
func TestLegacySSEServesClientsThatAreNotBrowsers(t *testing.T) {
	c := startConsoleHub(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.url+"/sse", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET /sse: %d", resp.StatusCode)
	}
	if o := resp.Header.Get("Access-Control-Allow-Origin"); o == "*" {
		t.Errorf("/sse answers Access-Control-Allow-Origin %q", o)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: /message?") {
			return
		}
	}
	t.Fatalf("the stream named no message endpoint: %v", sc.Err())
}

// TestOversizedBodies: a body over wire.MaxBodyBytes is 413, not 400, on the
// API's calls and on the MCP endpoints the hub reads itself.
func TestOversizedBodies(t *testing.T) {
	c := startConsoleHub(t, "")
	huge := `{"name":"alpha__echo","arguments":{"text":"` + strings.Repeat("x", 5<<20) + `"}}`
	for _, path := range []string{"/api/call", "/api/mcp/call", "/message?sessionId=x"} {
		if code, body, _ := c.do(t, "POST", path, "application/json", huge); code != http.StatusRequestEntityTooLarge {
			t.Errorf("POST %s with 5 MiB: %d %.200s, want 413", path, code, body)
		}
	}
}
