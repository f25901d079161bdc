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
	"maps"
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
		ClientID     string     `json:"client_id"`
		ClientSecret string     `json:"client_secret"`
		ToolCalls    []toolCall `json:"toolCalls"`
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
	err = use(ctx, store, m, spec, cc.ToolCalls)
	if auth && errors.Is(err, transport.ErrOAuthAuthorizationRequired) || auth && err != nil && strings.Contains(err.Error(), "chronicle auth login") {
		// The login no longer works (the server moved to another
		// authorization server) or is too narrow (a 403 insufficient_scope
		// recorded the scope the server wants: a step-up): log in again,
		// as a user told so would; the login asks for the wider scope.
		if err := login(ctx, store, spec, cc.ClientSecret); err != nil {
			return err
		}
		err = use(ctx, store, m, spec, cc.ToolCalls)
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

// use reaches the server through the hub's upstream client as the hub
// does for a client of its own that speaks the newest revision: it lists
// what the server offers, calls each tool (those the scenario's context
// names, with their arguments; else every listed one), gets each prompt and
// reads each resource.
func use(ctx context.Context, store *oauth.Store, m *mask.Masker, spec service.Service, calls []toolCall) error {
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
	if len(calls) == 0 {
		for _, t := range cat.Tools {
			c := toolCall{Name: t.Name, Arguments: map[string]any{}}
			switch t.Name {
			case "add_numbers":
				c.Arguments = map[string]any{"a": 5, "b": 3}
			case "json_schema_echo":
				// The scenario asks for the schema of another tool as the
				// hub holds it: whatever the hub dropped of it shows.
				for _, other := range cat.Tools {
					if other.Name == "json_schema_2020_12_tool" {
						c.Arguments = map[string]any{"schema": other.RawInputSchema}
					}
				}
			}
			calls = append(calls, c)
		}
	}
	for _, c := range calls {
		if _, err := request(ctx, u, "tools/call", map[string]any{"name": c.Name, "arguments": c.Arguments}); err != nil {
			return err
		}
	}
	for _, p := range cat.Prompts {
		if _, err := request(ctx, u, "prompts/get", map[string]any{"name": p.Name}); err != nil {
			return err
		}
	}
	for _, r := range cat.Resources {
		if _, err := request(ctx, u, "resources/read", map[string]any{"uri": r.URI}); err != nil {
			return err
		}
	}
	return nil
}

// A toolCall is a call the scenario's context asks for.
type toolCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// clientCaps are the capabilities of the hub's client the driver plays.
var clientCaps = &mcp.ClientCapabilities{
	Roots: &struct {
		ListChanged bool `json:"listChanged,omitempty"`
	}{},
	Sampling:    &mcp.SamplingCapability{},
	Elicitation: &mcp.ElicitationCapability{},
}

// maxRounds bounds the multi-round-trip retries of one request.
const maxRounds = 10

// request sends one request as the hub's call path sends a 2026-07-28
// client's (upstream.RequestModern), and as the hub's client then does,
// answers an input_required result's inputRequests and retries with the
// answers and the requestState echoed (SEP-2322). An upstream of the
// session era gets it on the session (Request): what the server asks
// meanwhile is attributed to the call and answered by answer.
func request(ctx context.Context, u *upstream.Upstream, method string, params map[string]any) (json.RawMessage, error) {
	for range maxRounds {
		raw, err := u.RequestModern(ctx, method, params, clientCaps)
		if errors.Is(err, upstream.ErrNotModern) {
			return u.Request(ctx, "conformance client", method, params)
		}
		if err != nil {
			return nil, err
		}
		var r struct {
			ResultType    string `json:"resultType"`
			InputRequests map[string]struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			} `json:"inputRequests"`
			RequestState *string `json:"requestState"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		if r.ResultType != "input_required" {
			return raw, nil
		}
		responses := map[string]json.RawMessage{}
		for key, in := range r.InputRequests {
			res, err := answer(ctx, "", nil, in.Method, in.Params)
			if err != nil {
				return nil, err
			}
			responses[key] = res
		}
		retry := maps.Clone(params)
		retry["inputResponses"] = responses
		delete(retry, "requestState")
		if r.RequestState != nil {
			retry["requestState"] = *r.RequestState
		}
		params = retry
	}
	return nil, fmt.Errorf("%s: still input_required after %d rounds", method, maxRounds)
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
