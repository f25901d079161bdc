// Command client is the MCP client the official conformance suite runs for
// its client scenarios (conformance client --command client): it reaches
// the server through the hub's own upstream client (hub/upstream) and logs
// in with chronicle's OAuth package (engine/oauth), following the
// authorization redirect instead of opening a browser. The suite gives the
// server's URL as the last argument, the scenario in
// MCP_CONFORMANCE_SCENARIO and its context (pre-registered credentials) in
// MCP_CONFORMANCE_CONTEXT.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/oauth"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/upstream"
)

// clientMetadataURL is the Client ID Metadata Document the suite's
// authorization servers know.
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

func run() error {
	if len(os.Args) < 2 {
		return errors.New("usage: client SERVER-URL")
	}
	serverURL := os.Args[len(os.Args)-1]
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	var cc struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	if c := os.Getenv("MCP_CONFORMANCE_CONTEXT"); c != "" {
		if err := json.Unmarshal([]byte(c), &cc); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	home, err := os.MkdirTemp("", "chronicle-conformance-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(home)

	m := mask.NewMasker()
	store := oauth.NewStore(filepath.Join(home, ".chronicle"), fsys.OS{}, m)
	spec := service.Service{Name: "conformance", Enabled: true,
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(serverURL)}}
	auth := strings.HasPrefix(scenario, "auth/")
	if auth {
		spec.OAuth = &service.OAuth{ClientID: cc.ClientID, ClientMetadataURL: clientMetadataURL}
		if cc.ClientSecret != "" {
			spec.OAuth.ClientSecret = secret.Literal(cc.ClientSecret)
		}
		if err := login(ctx, store, spec, cc.ClientSecret); err != nil {
			return err
		}
	}
	err = use(ctx, store, m, spec)
	if auth && errors.Is(err, transport.ErrOAuthAuthorizationRequired) || auth && err != nil && strings.Contains(err.Error(), "chronicle auth login") {
		// The login no longer works (the server moved to another
		// authorization server) or is too narrow (a 403 insufficient_scope
		// recorded the scope the server wants: a step-up): log in again,
		// as a user told so would; the login asks for the wider scope.
		if err := login(ctx, store, spec, cc.ClientSecret); err != nil {
			return err
		}
		err = use(ctx, store, m, spec)
	}
	return err
}

// login logs in as chronicle auth login does, the browser played by an
// HTTP client that follows the authorization server's redirects.
func login(ctx context.Context, store *oauth.Store, spec service.Service, clientSecret string) error {
	browser := &http.Client{Timeout: 10 * time.Second}
	open := func(u string) error {
		resp, err := browser.Get(u)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		return resp.Body.Close()
	}
	svc := oauth.Resource{Name: spec.Name, URL: serverURLOf(spec), OAuth: *spec.OAuth, ClientSecret: clientSecret}
	_, err := (&oauth.Login{Store: store, Service: svc, Open: open}).Run(ctx)
	return err
}

func serverURLOf(spec service.Service) string {
	u, _ := spec.URL.Literal()
	return u
}

// use initializes the server through the hub's upstream client, lists its
// tools and calls one (the scenario's add_numbers, else the first) as the
// hub calls one for a client.
func use(ctx context.Context, store *oauth.Store, m *mask.Masker, spec service.Service) error {
	pool := upstream.NewPool(upstream.PoolOptions{OAuth: store, Masker: m,
		ClientInfo: mcp.Implementation{Name: "chronicle-conformance", Version: "1"},
		OnRequest:  answer})
	defer pool.Close()
	pool.Reconcile([]service.Service{spec})
	u := pool.Get(spec.Name)
	cat, err := u.Catalog(ctx)
	if err != nil {
		return err
	}
	if len(cat.Tools) == 0 {
		return nil
	}
	name, args := cat.Tools[0].Name, map[string]any{}
	for _, t := range cat.Tools {
		if t.Name == "add_numbers" {
			name, args = t.Name, map[string]any{"a": 5, "b": 3}
		}
	}
	// Request, as the hub's call path sends a client's call: what the
	// server asks meanwhile (elicitation) is attributed to it.
	_, err = u.Request(ctx, "conformance client", "tools/call", map[string]any{"name": name, "arguments": args})
	return err
}

// answer plays the person the hub would ask: an elicitation is accepted
// with every default its schema gives (SEP-1034); anything else is
// refused.
func answer(_ context.Context, _ string, _ any, method string, params json.RawMessage) (json.RawMessage, error) {
	if method != "elicitation/create" {
		return nil, fmt.Errorf("%s: no one to ask", method)
	}
	var p struct {
		RequestedSchema struct {
			Properties map[string]struct {
				Default any `json:"default"`
			} `json:"properties"`
		} `json:"requestedSchema"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	content := map[string]any{}
	for name, prop := range p.RequestedSchema.Properties {
		if prop.Default != nil {
			content[name] = prop.Default
		}
	}
	return json.Marshal(map[string]any{"action": "accept", "content": content})
}
