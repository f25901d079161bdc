package upstream

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// serverModeEnv selects, in a re-executed test binary, which MCP server it
// runs instead of the tests.
const serverModeEnv = "UPSTREAM_TEST_SERVER"

// releaseEnv names the file whose creation lets the slow server start.
const releaseEnv = "UPSTREAM_TEST_RELEASE"

// richSchema uses what the typed mcp.ToolInputSchema would drop: $schema,
// $defs with $ref, additionalProperties false and a custom x- keyword.
const richSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}},
  "properties": {
    "from": {"$ref": "#/$defs/point"},
    "to": {"$ref": "#/$defs/point"},
    "mode": {"enum": ["fast", "slow"], "default": "fast"},
    "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1}
  },
  "required": ["from", "to"],
  "additionalProperties": false,
  "x-chronicle-custom": {"nested": [1, 2, 3], "flag": true}
}`

const richOutputSchema = `{"type": "object", "properties": {"distance": {"type": "number"}}, "required": ["distance"], "x-unit": "m"}`

// longToolName is 80 characters long.
var longToolName = "a_tool_whose_name_is_far_too_long_for_clients_" + strings.Repeat("x", 80-46)

// serveTestServer runs one of the faulty MCP servers over stdio:
//
//	normal  echo, pid, crash, hang, leak, add_tool, plot_route, the long name
//	slow    the same, once the file named by $UPSTREAM_TEST_RELEASE exists
//	garbage answers every line on stdin with a line that is not JSON-RPC
//	exit    writes a message to stderr and exits with status 2
func serveTestServer(mode string) {
	switch mode {
	case "slow":
		// Starts only once the test creates the file named by
		// releaseEnv, so it is still starting for as long as the test
		// needs, however fast or loaded the machine.
		for {
			if _, err := os.Stat(os.Getenv(releaseEnv)); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	case "garbage":
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Println("Server starting... this is not JSON-RPC")
		}
		return
	case "exit":
		fmt.Fprintln(os.Stderr, "fatal: missing configuration")
		os.Exit(2)
	}
	if err := server.ServeStdio(newTestServer()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// newTestServer returns the MCP server of the normal mode.
func newTestServer() *server.MCPServer {
	s := server.NewMCPServer("faulty", "1.0.0",
		server.WithToolCapabilities(true),
		server.WithPromptCapabilities(false),
		server.WithResourceCapabilities(false, false))
	addTestTools(s)
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithArgument("name")),
		func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("greeting", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("hello "+req.Params.Arguments["name"])),
			}), nil
		})
	s.AddResource(mcp.NewResource("test://readme", "readme", mcp.WithMIMEType("text/plain")),
		func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "read me"}}, nil
		})
	return s
}

func addTestTools(s *server.MCPServer) {
	text := func(t string) (*mcp.CallToolResult, error) { return mcp.NewToolResultText(t), nil }
	s.AddTool(mcp.NewTool("echo", mcp.WithString("message", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(req.GetString("message", ""))
		})
	s.AddTool(mcp.NewTool("pid", mcp.WithDescription(fmt.Sprintf("reports pid %d", os.Getpid()))),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(fmt.Sprint(os.Getpid()))
		})
	s.AddTool(mcp.NewTool("crash"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "crashing on purpose")
			os.Exit(3)
			return nil, nil
		})
	s.AddTool(mcp.NewTool("hang"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			time.Sleep(time.Hour) // ignores cancellation on purpose
			return text("woke")
		})
	s.AddTool(mcp.NewTool("leak"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "token is "+os.Getenv("SECRET_TOKEN"))
			return text("leaked to stderr")
		})
	s.AddTool(mcp.NewTool("getenv", mcp.WithString("name", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			v, ok := os.LookupEnv(req.GetString("name", ""))
			if !ok {
				return text("<unset>")
			}
			return text(v)
		})
	s.AddTool(mcp.NewTool("add_tool"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.AddTool(mcp.NewTool("added"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text("added")
			})
			return text("ok")
		})
	route := mcp.NewToolWithRawSchema("plot_route", "plots a route", json.RawMessage(richSchema))
	route.RawOutputSchema = json.RawMessage(richOutputSchema)
	s.AddTool(route,
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("plotted")
		})
	s.AddTool(mcp.NewTool(longToolName),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("long")
		})
}
