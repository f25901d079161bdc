package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// attackScript is what a page on another loopback port (any local dev
// server) tried against the hub: an EventSource on the legacy /sse, whose
// endpoint event names a session to post to, then no-cors text/plain POSTs
// of a whole MCP session to /message; a no-cors text/plain POST to
// /api/call; an <img> of /api/tools, which lists every tool and so starts
// every upstream. It answers what the page saw, as JSON.
const attackScript = `(async (hub) => {
  const out = {};
  const es = new EventSource(hub + "/sse");
  out.sse = await new Promise((resolve) => {
    es.addEventListener("endpoint", (e) => resolve("endpoint " + e.data));
    es.onerror = () => resolve("error");
  });
  if (out.sse.startsWith("endpoint ")) {
    const to = new URL(out.sse.slice(9), hub);
    const post = (m) => fetch(to, {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"}, body: JSON.stringify(m)}).then((r) => r.type, (e) => "error");
    out.message = await post({jsonrpc: "2.0", id: 1, method: "initialize", params: {protocolVersion: "2024-11-05", capabilities: {}, clientInfo: {name: "page", version: "1"}}});
    await post({jsonrpc: "2.0", method: "notifications/initialized"});
    await post({jsonrpc: "2.0", id: 2, method: "tools/call", params: {name: "everything__echo", arguments: {message: "from a page"}}});
  }
  es.close();
  out.call = await fetch(hub + "/api/call", {method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"},
    body: JSON.stringify({tool: "everything__echo", name: "everything__echo", arguments: {message: "from a page"}})}).then((r) => r.type, (e) => "error");
  out.img = await new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve("load");
    img.onerror = () => resolve("error");
    img.src = hub + "/api/tools";
  });
  return JSON.stringify(out);
})`

// TestBrowserAttacksOnTheHub runs attackScript in Chromium, from a page on
// another loopback port, against a real chronicle serve without hub
// { token } (the default): no session, no call and no upstream come of it.
// On the commit before the route table (docs/decisions/0065) the page got
// an SSE session, called everything__echo through /message and /api/call,
// and the <img> started server-everything.
func TestBrowserAttacksOnTheHub(t *testing.T) {
	c := startHubWith(t, strings.Replace(consoleConfig, "hub {\n  token = secret(\"env:CHRONICLE_HUB_TOKEN\")\n}\n", "", 1))
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><title>a local dev server</title><p>nothing to see"))
	}))
	defer page.Close()
	ctx := newBrowser(t)
	tb := openTab(t, ctx, page.URL)
	tb.do("opening the page", chromedp.Navigate(page.URL))
	saw := eval[string](tb, attackScript+"("+strconv.Quote(c.url)+")")
	t.Logf("the page saw %s", saw)
	var out map[string]string
	if err := json.Unmarshal([]byte(saw), &out); err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(out["sse"], "endpoint") {
		t.Errorf("the page read the SSE stream's endpoint: %s", out["sse"])
	}

	token := ""
	if b, err := os.ReadFile(filepath.Join(c.home, ".chronicle", "hub.token")); err == nil {
		token = strings.TrimSpace(string(b))
	}
	get := func(path string) string {
		req, _ := http.NewRequest("GET", c.url+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s with the hub's token: %d %s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	if logs := get("/api/log"); strings.Contains(logs, "from a page") || strings.Contains(logs, "tools/call") {
		t.Errorf("the page's calls reached the hub's call path:\n%.1500s", logs)
	}
	var status struct {
		Children []int `json:"children"`
		Sessions []any `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(get("/api/status")), &status); err != nil {
		t.Fatal(err)
	}
	if len(status.Children) != 0 {
		t.Errorf("the page started upstreams: %v", status.Children)
	}
	if len(status.Sessions) != 0 {
		t.Errorf("the page holds %d sessions", len(status.Sessions))
	}
}
