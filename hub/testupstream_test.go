package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/hub/search/replay"
	"github.com/chronicle-dev/chronicle/internal/leaktest"
)

// upstreamEnv selects what the test binary serves when a hub starts it as a
// stdio upstream.
const upstreamEnv = "CHRONICLE_HUB_TEST_UPSTREAM"

// LongToolName is 80 characters: too long for a client once prefixed.
var LongToolName = strings.Repeat("very_long_tool_name_", 4)

// rawSchema has keys the typed schema of mcp-go would drop.
const rawSchema = `{"type":"object","$defs":{"when":{"type":"string","format":"date"}},"properties":{"at":{"$ref":"#/$defs/when"}},"additionalProperties":false,"x-custom":true}`

func TestMain(m *testing.M) {
	if state := os.Getenv(httpStateEnv); state != "" {
		serveHTTPForTest(state)
		return
	}
	if state := os.Getenv(stdioStateEnv); state != "" {
		serveStdioForTest(state)
		return
	}
	if mode := os.Getenv(upstreamEnv); mode != "" {
		serveTestUpstream(mode)
		return
	}
	// Every client of these tests — theirs and mcp-go's — sends the token
	// of the hub it talks to, as a hub entry chronicle writes does, unless
	// a test sets Authorization itself (empty: none). The tests of the
	// token rule itself say what they send (security_token_test.go).
	http.DefaultTransport = tokenTransport{next: http.DefaultTransport}
	os.Exit(m.Run())
}

// tokenTransport adds the token of the hub a request goes to (withToken).
type tokenTransport struct{ next http.RoundTripper }

func (t tokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	// A RoundTripper must not change the request it was given.
	return t.next.RoundTrip(withToken(req.Clone(req.Context())))
}

// serveTestUpstream is a small MCP server over stdio: echo, a tool a policy
// disables, a tool with a raw schema, an 80-character tool name, a prompt
// and a resource. Its tools are named after mode so two services differ.
// Mode "args" adds args, which answers its arguments as they reached it.
// Mode "replay:PATH" replays a recorded public server instead.
func serveTestUpstream(mode string) {
	if recording, ok := strings.CutPrefix(mode, "replay:"); ok {
		if err := replay.Serve(recording); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if mode == "leaky" {
		serveLeakyUpstream()
		return
	}
	if mode == "recorder" {
		serveRecorder(os.Stdin, os.Stdout)
		return
	}
	if mode == "tasks" {
		serveTaskUpstream()
		return
	}
	if addr := os.Getenv(gateEnv); addr != "" {
		// Answer nothing until the test opens the gate.
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			os.Exit(3)
		}
		_, _ = conn.Read(make([]byte, 1))
	}
	s := server.NewMCPServer("test-upstream-"+mode, "1", server.WithToolCapabilities(true), server.WithPromptCapabilities(true), server.WithResourceCapabilities(false, true))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echoes its text."), mcp.WithString("text", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(mode + ":" + req.GetString("text", "")), nil
		})
	s.AddTool(mcp.NewTool("delete_everything", mcp.WithDescription("Dangerous.")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("deleted!"), nil
		})
	if mode == "args" {
		s.AddTool(mcp.NewTool("args", mcp.WithDescription("Answers its arguments as they reached it.")),
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return mcp.NewToolResultText(string(req.Params.RawArguments)), nil
			})
	}
	s.AddTool(mcp.NewToolWithRawSchema("schedule", "Uses $defs.", json.RawMessage(rawSchema)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("scheduled"), nil
		})
	s.AddTool(mcp.NewTool(LongToolName, mcp.WithDescription("A long name.")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("long"), nil
		})
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithPromptDescription("Greets.")),
		func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("greeting", []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("hello from "+mode))}), nil
		})
	s.AddResource(mcp.NewResource("test://"+mode+"/readme", "readme"),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, Text: "readme of " + mode}}, nil
		})
	s.AddResource(mcp.NewResource("test://shared", "shared"),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, Text: "shared from " + mode}}, nil
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// serveTaskUpstream offers echo and long_job, a tool that can only be
// called as a task, which answers "done: TEXT". (mcp-go v1.2.1 ends a
// task's context with the tools/call that made it, so this upstream cannot
// hold a task open for a test of cancellation: the pool's tests cancel a
// task of server-everything.)
func serveTaskUpstream() {
	s := server.NewMCPServer("tasks", "1", server.WithToolCapabilities(true), server.WithTaskCapabilities(true, true, true))
	s.AddTool(mcp.NewTool("echo", mcp.WithDescription("Echoes its text."), mcp.WithString("text", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("tasks:" + req.GetString("text", "")), nil
		})
	s.AddTaskTool(mcp.NewTool("long_job", mcp.WithDescription("Runs as a task."), mcp.WithTaskSupport(mcp.TaskSupportRequired)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
			return &mcp.CreateTaskResult{Content: []mcp.Content{mcp.NewTextContent("done: " + req.GetString("text", ""))}}, nil
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func secretEnv(name string) secret.Value {
	return secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: name})
}

type secretValue = secret.Value

func secretLiteral(s string) secret.Value { return secret.Literal(s) }

// gateEnv names a TCP address the upstream connects to before it serves
// anything: it waits until the test writes a byte there.
const gateEnv = "HUB_TEST_GATE"

// leakEnv carries the secret a leaky upstream was started with.
const leakEnv = "LEAKY_TOKEN"

// serveLeakyUpstream repeats the secret it was given everywhere an upstream
// can: a tool description, a schema default, a prompt, a resource, a tool
// result, an error and its stderr.
func serveLeakyUpstream() {
	tok := os.Getenv(leakEnv)
	fmt.Fprintln(os.Stderr, "starting with token "+tok)
	s := server.NewMCPServer("leaky", "1", server.WithToolCapabilities(true), server.WithPromptCapabilities(true), server.WithResourceCapabilities(false, true))
	schema := fmt.Sprintf(`{"type":"object","properties":{"key":{"type":"string","default":%q}}}`, tok)
	s.AddTool(mcp.NewToolWithRawSchema("whoami", "Uses the key "+tok+" to answer.", json.RawMessage(schema)),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "called with token "+tok)
			return mcp.NewToolResultText("your token is " + tok), nil
		})
	s.AddTool(mcp.NewTool("fail", mcp.WithDescription("Fails.")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, fmt.Errorf("upstream rejected token %s", tok)
		})
	s.AddTool(mcp.NewTool("big", mcp.WithDescription("Answers mb megabytes of log lines that quote the key."), mcp.WithNumber("mb", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(leaktest.BigText(req.GetInt("mb", 1)<<20, tok+" "+leaktest.ShapedToken)), nil
		})
	s.AddPrompt(mcp.NewPrompt("leak", mcp.WithPromptDescription("catalog.Prompt with "+tok)),
		func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("leak "+tok, []mcp.PromptMessage{mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("the token is "+tok))}), nil
		})
	s.AddResource(mcp.NewResource("leak://r", "resource "+tok, mcp.WithResourceDescription("about "+tok)),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return nil, fmt.Errorf("cannot read with %s", tok)
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
