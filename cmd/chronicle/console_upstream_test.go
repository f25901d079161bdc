package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// xssUpstreamEnv makes the test binary a stdio MCP server whose tool
// description and schema are markup, and whose big tool answers 60 MB, for
// the console's browser test.
const xssUpstreamEnv = "CHRONICLE_CONSOLE_TEST_UPSTREAM"

// xssDescription must show as these characters, never as an image.
const xssDescription = `<img src=x onerror=alert(1)>`

// The start and the end of the big tool's answer: the console's log shows
// them, with a marker for what it left out between them, and the token
// masked.
const (
	bigResultStart = "first line: token ghp_Q8zV2mK5nR7tW1xY4bC6dF9gH3jL0pS2uE5a\n"
	bigResultEnd   = "\nlast line of the big answer"
)

func serveXSSUpstream() {
	s := server.NewMCPServer("xss", "1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("evil", mcp.WithDescription(xssDescription),
		mcp.WithString("html", mcp.Description(`<script>alert(2)</script>`))),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(`<b onclick=alert(3)>bold</b>`), nil
		})
	s.AddTool(mcp.NewTool("big", mcp.WithDescription("Answers 60 MB of log lines.")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(bigResultStart + strings.Repeat(" GET /api/items?page=2 200 0.004s the quick brown fox\n", 60<<20/54) + bigResultEnd), nil
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// callOverMCP calls a tool through the hub at hubURL as an MCP client does,
// with the hub token, and returns the text it answered.
func callOverMCP(t *testing.T, hubURL, name string) string {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(hubURL+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + consoleToken}))
	if err != nil {
		t.Fatal(err)
	}
	c := client.NewClient(tr, client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // 60 MB through a -race build
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	var req mcp.CallToolRequest
	req.Params.Name = name
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String()
}
