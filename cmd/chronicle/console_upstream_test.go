package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// xssUpstreamEnv makes the test binary a stdio MCP server whose tool
// description and schema are markup, for the console's browser test.
const xssUpstreamEnv = "CHRONICLE_CONSOLE_TEST_UPSTREAM"

// xssDescription must show as these characters, never as an image.
const xssDescription = `<img src=x onerror=alert(1)>`

func serveXSSUpstream() {
	s := server.NewMCPServer("xss", "1", server.WithToolCapabilities(true))
	s.AddTool(mcp.NewTool("evil", mcp.WithDescription(xssDescription),
		mcp.WithString("html", mcp.Description(`<script>alert(2)</script>`))),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(`<b onclick=alert(3)>bold</b>`), nil
		})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
