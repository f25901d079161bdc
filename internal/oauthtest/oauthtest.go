// Package oauthtest runs a real OpenID provider (zitadel/oidc's, in
// process) in front of a small MCP server that checks the bearer token,
// and plays the user's browser against it: for the tests of engine/oauth
// and of chronicle auth. For tests only.
package oauthtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
)

// ClientID is the native client registered with the authorization
// server in advance; its loopback redirect takes any port (RFC 8252 §7.3).
const ClientID = "chronicle-test"

var registerOnce sync.Once

// Servers are a real OpenID provider (zitadel/oidc's, in process) in
// front of a small MCP server that accepts a request only with a bearer
// token the provider's userinfo endpoint accepts.
type Servers struct {
	Issuer  string
	MCPURL  string
	mu      sync.Mutex
	revoked int
	stepUps int
}

// Revoked returns how many revocation requests the provider answered.
func (ts *Servers) Revoked() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.revoked
}

// Start starts the provider and the MCP server; both stop when the test
// ends.
func Start(t testing.TB) *Servers {
	t.Helper()
	registerOnce.Do(func() {
		// The provider's example login logs every request: quiet.
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
		storage.RegisterClients(storage.NativeClient(ClientID, "http://127.0.0.1/callback"))
	})
	ts := &Servers{}
	asLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts.Issuer = "http://" + asLn.Addr().String()
	router := exampleop.SetupServer(ts.Issuer, storage.NewStorage(storage.NewUserStore(ts.Issuer)), nil, false)
	as := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/revoke" {
			ts.mu.Lock()
			ts.revoked++
			ts.mu.Unlock()
		}
		router.ServeHTTP(w, r)
	})}
	go as.Serve(asLn)
	t.Cleanup(func() { as.Close() })

	mcpLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + mcpLn.Addr().String()
	ts.MCPURL = base + "/mcp"
	s := server.NewMCPServer("protected", "1.0")
	s.AddTool(mcp.NewTool("whoami"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("a logged-in user"), nil
	})
	mcpHandler := server.NewStreamableHTTPServer(s)
	prm := "/.well-known/oauth-protected-resource/mcp"
	mux := http.NewServeMux()
	mux.HandleFunc(prm, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"resource": ts.MCPURL, "authorization_servers": []string{ts.Issuer}})
	})
	s.AddTool(mcp.NewTool("mail", mcp.WithDescription("Needs the email scope: a token without it gets a 403 insufficient_scope.")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("mail read"), nil
	})
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		claims, ok := ts.userinfo(r.Context(), r.Header.Get("Authorization"))
		if !ok {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s%s", scope="openid offline_access"`, base, prm))
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if json.Unmarshal(body, &msg) == nil && msg.Method == "tools/call" && msg.Params.Name == "mail" && claims["email"] == nil {
			// The step-up of the MCP authorization spec: the token is
			// good, but not for this tool.
			ts.mu.Lock()
			ts.stepUps++
			ts.mu.Unlock()
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="openid offline_access email", resource_metadata="%s%s"`, base, prm))
			http.Error(w, `{"error":"insufficient_scope"}`, http.StatusForbidden)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	})
	ms := &http.Server{Handler: mux}
	go ms.Serve(mcpLn)
	t.Cleanup(func() { ms.Close() })
	return ts
}

// Accepts asks the provider's userinfo endpoint whether the bearer token
// is one it issued and has not revoked or replaced.
func (ts *Servers) Accepts(ctx context.Context, authorization string) bool {
	_, ok := ts.userinfo(ctx, authorization)
	return ok
}

// StepUps returns how many calls of the mail tool the MCP server refused
// with a 403 insufficient_scope.
func (ts *Servers) StepUps() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.stepUps
}

// userinfo returns the provider's userinfo for the bearer token (its
// claims follow the token's scopes: email only with "email"), false when
// the provider does not accept the token.
func (ts *Servers) userinfo(ctx context.Context, authorization string) (map[string]any, bool) {
	if !strings.HasPrefix(authorization, "Bearer ") {
		return nil, false
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.Issuer+"/userinfo", nil)
	req.Header.Set("Authorization", authorization)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	var claims map[string]any
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&claims) != nil {
		return nil, false
	}
	return claims, true
}

// Browser plays the user's browser: it follows the authorization URL,
// signs in on the provider's login page and follows the redirect back to
// chronicle's loopback listener (unless follow is false). redirected
// returns the redirected URL, which a user would paste with --no-browser.
func Browser(t testing.TB, ts *Servers, follow bool) (open func(string) error, redirected func() string) {
	jar, _ := cookiejar.New(nil)
	var last string
	var mu sync.Mutex
	client := &http.Client{Jar: jar, Timeout: 20 * time.Second, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if strings.HasPrefix(req.URL.Path, "/callback") && req.URL.Query().Get("code") != "" && req.URL.Host != strings.TrimPrefix(ts.Issuer, "http://") {
			mu.Lock()
			last = req.URL.String()
			mu.Unlock()
			if !follow {
				return http.ErrUseLastResponse
			}
		}
		return nil
	}}
	open = func(authURL string) error {
		resp, err := client.Get(authURL)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		id := resp.Request.URL.Query().Get("authRequestID")
		if id == "" {
			return fmt.Errorf("the provider showed no login page: %s", resp.Request.URL)
		}
		host := strings.Split(strings.TrimPrefix(ts.Issuer, "http://"), ":")[0]
		resp, err = client.PostForm(ts.Issuer+"/login/username", url.Values{
			"username": {"test-user@" + host}, "password": {"verysecure"}, "id": {id},
		})
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return nil
	}
	return open, func() string { mu.Lock(); defer mu.Unlock(); return last }
}
