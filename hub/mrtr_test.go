package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// mrtrUpstream is an mcp-go server over Streamable HTTP that speaks both
// eras, with a tool that asks for confirmation as a multi-round-trip
// result (SEP-2322) and keeps the environment in its requestState. It
// refuses a requestState it did not hand out with a JSON-RPC error, and
// records the states it was sent back.
func mrtrUpstream(t *testing.T) (url string, states func() []string) {
	var mu sync.Mutex
	var seen []string
	srv := server.NewMCPServer("mrtr", "1", server.WithToolCapabilities(false), server.WithPromptCapabilities(false),
		server.WithToolFilter(func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
			if server.IsModernRequest(ctx) {
				return tools
			}
			var out []mcp.Tool
			for _, t := range tools {
				if t.Name != "deploy_modern" {
					out = append(out, t)
				}
			}
			return out
		}))
	deploy := func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if st := req.Params.RequestState; st != "" {
			mu.Lock()
			seen = append(seen, st)
			mu.Unlock()
			if strings.HasSuffix(st, "-TAMPERED") {
				return nil, errors.New("requestState integrity check failed")
			}
		}
		if answer := server.ElicitationResponse(req.Params.InputResponses, "confirm"); answer != nil {
			content, _ := answer.Content.(map[string]any)
			if ok, _ := content["approve"].(bool); !ok || answer.Action != mcp.ElicitationResponseActionAccept {
				return mcp.NewToolResultText("declined"), nil
			}
			return mcp.NewToolResultText("deployed to " + strings.TrimPrefix(req.Params.RequestState, "env=")), nil
		}
		return server.NewInputRequestBuilder("env="+req.GetString("environment", "")).
			Elicit("confirm", mcp.ElicitationParams{Mode: mcp.ElicitationModeForm, Message: "Deploy?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"approve": map[string]any{"type": "boolean"}}}}).
			ToolResult(), nil
	}
	srv.AddPrompt(mcp.NewPrompt("notes"), func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if answer := server.ElicitationResponse(req.Params.InputResponses, "topic"); answer != nil {
			content, _ := answer.Content.(map[string]any)
			return mcp.NewGetPromptResult("notes", []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser,
				mcp.NewTextContent(fmt.Sprintf("notes, approved %v, state %s", content["approve"], req.Params.RequestState)))}), nil
		}
		return server.NewInputRequestBuilder("prompt-state").
			Elicit("topic", mcp.ElicitationParams{Mode: mcp.ElicitationModeForm, Message: "Which topic?",
				RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"approve": map[string]any{"type": "boolean"}}}}).
			PromptResult(), nil
	})
	srv.AddTool(mcp.NewTool("deploy", mcp.WithString("environment", mcp.Required())), deploy)
	srv.AddTool(mcp.NewTool("deploy_modern", mcp.WithString("environment", mcp.Required())), deploy)
	ts := httptest.NewServer(server.NewStreamableHTTPServer(srv))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	return ts.URL + "/mcp", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// serveHubFor serves a hub in process whose one service, named name, is
// the HTTP upstream at url, and returns the hub's base URL.
func serveHubFor(t *testing.T, name, url string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	path := filepath.Join(dir, "state.json")
	st, err := state.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	st.Services = map[string]service.Service{name: {
		Name: name, Enabled: true, Timeout: time.Minute,
		Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal(url)},
	}}
	st.Policies = map[string]state.Policy{}
	st.Hub = &state.Hub{Listen: "127.0.0.1:0", LocalClients: "open"}
	if err := st.Save(path); err != nil {
		t.Fatal(err)
	}
	h, err := New(Options{StatePath: path, Home: dir, Version: "test", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return serveHub(t, h).url
}

// TestMultiRoundTripPassesThrough calls, through /mcp/service, a tool that
// answers input_required: a 2026-07-28 client gets the upstream's
// inputRequests and requestState, and its retry's answers and state reach
// the upstream as it sent them; a requestState the upstream refuses is a
// JSON-RPC error for the client too; a session-era client is asked for the
// same input mid-call, as before.
func TestMultiRoundTripPassesThrough(t *testing.T) {
	upURL, states := mrtrUpstream(t)
	base := serveHubFor(t, "ops", upURL)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	approve := &approver{}
	connect := func(version string) *client.Client {
		tr, err := transport.NewStreamableHTTP(base + "/mcp/service/ops")
		if err != nil {
			t.Fatal(err)
		}
		c := client.NewClient(tr, client.WithElicitationHandler(approve), client.WithProtocolVersion(version))
		t.Cleanup(func() { _ = c.Close() })
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = version
		req.Params.ClientInfo = mcp.Implementation{Name: "test", Version: "1"}
		res, err := c.Initialize(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if res.ProtocolVersion != version {
			t.Fatalf("the client speaks %s, want %s", res.ProtocolVersion, version)
		}
		return c
	}
	deploy := func(c *client.Client, tool string) (*mcp.CallToolResult, error) {
		req := mcp.CallToolRequest{}
		req.Params.Name = tool
		req.Params.Arguments = map[string]any{"environment": "prod"}
		return c.CallTool(ctx, req)
	}

	modern := connect(mcp.LATEST_PROTOCOL_VERSION)
	res, err := deploy(modern, "deploy")
	if err != nil || res.IsError || len(res.Content) == 0 || mcp.GetTextFromContent(res.Content[0]) != "deployed to prod" {
		t.Fatalf("2026-07-28 client: %+v, %v", res, err)
	}
	if approve.count() != 1 || strings.Join(states(), ",") != "env=prod" {
		t.Errorf("2026-07-28 client: asked %d times, the upstream got back the states %q; want 1 and [env=prod]", approve.count(), states())
	}

	// A prompt asks the same way; its retry's state reaches the upstream.
	pr, err := modern.GetPrompt(ctx, mcp.GetPromptRequest{Params: mcp.GetPromptParams{Name: "notes"}})
	if err != nil || len(pr.Messages) != 1 || mcp.GetTextFromContent(pr.Messages[0].Content) != "notes, approved true, state prompt-state" {
		t.Fatalf("2026-07-28 client, prompts/get: %+v, %v", pr, err)
	}
	if n := approve.count(); n != 2 {
		t.Errorf("2026-07-28 client, prompts/get: asked %d times in all, want 2", n)
	}

	// A requestState the upstream did not hand out: the hub passes it on
	// as it is, and the upstream's refusal is a JSON-RPC error for the
	// client, not a tool result. (mcp-go's client drives the retries
	// itself, so this retry is sent as a 2026-07-28 client sends it.)
	body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"deploy","arguments":{"environment":"prod"},` +
		`"inputResponses":{"confirm":{"action":"accept","content":{"approve":true}}},"requestState":"env=prod-TAMPERED",` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/mcp/service/ops", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "deploy")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var answer struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || answer.ID != 7 || answer.Error == nil || answer.Result != nil ||
		!strings.Contains(answer.Error.Message, "integrity check failed") {
		t.Errorf("a tampered requestState was answered %s; want a JSON-RPC error naming the upstream's reason", raw)
	}
	if got := states(); got[len(got)-1] != "env=prod-TAMPERED" {
		t.Errorf("the upstream got back %q, want the client's state as it was sent", got)
	}

	// A session-era client is asked through the hub mid-call, as before;
	// and for a tool only the 2026-07-28 revision offers, which the hub
	// calls in that revision, mcp-go asks it on the upstream's behalf and
	// retries with its answers.
	legacy := connect(mcp.LATEST_LEGACY_PROTOCOL_VERSION)
	for i, tool := range []string{"deploy", "deploy_modern"} {
		res, err = deploy(legacy, tool)
		if err != nil || res.IsError || len(res.Content) == 0 || mcp.GetTextFromContent(res.Content[0]) != "deployed to prod" {
			t.Fatalf("session-era client, %s: %+v, %v", tool, res, err)
		}
		if n := approve.count(); n != 3+i {
			t.Errorf("session-era client, %s: asked %d times in all, want %d", tool, n, 3+i)
		}
	}
}

// An approver approves every elicitation and counts them.
type approver struct {
	mu sync.Mutex
	n  int
}

func (a *approver) Elicit(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	a.mu.Lock()
	a.n++
	a.mu.Unlock()
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"approve": true}}}, nil
}

func (a *approver) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n
}
