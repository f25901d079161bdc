package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
)

// cmdMCPHTTP is a real MCP client (mcp-go's) over Streamable HTTP, for the
// endpoints whose clients must send a token:
//
//	mcphttp [-token FILE] URL list                 prints the tools' names
//	mcphttp [-token FILE] URL call TOOL [K=V...]   prints the result's text
//
// A call's argument value is JSON when it parses as JSON, else a string;
// a result that is an error prints "isError: true" first.
//
// With -token it sends Authorization: Bearer with the token in FILE, as a
// hub entry chronicle writes does; without, no Authorization at all.
func cmdMCPHTTP(ts *testscript.TestScript, neg bool, args []string) {
	headers := map[string]string{}
	if len(args) > 1 && args[0] == "-token" {
		tok, err := hubtoken.Read(fsys.OS{}, ts.MkAbs(args[1]))
		if err != nil {
			ts.Fatalf("mcphttp: %v", err)
		}
		headers["Authorization"] = "Bearer " + tok
		args = args[2:]
	}
	if len(args) < 2 || (args[1] == "call") != (len(args) >= 3) {
		ts.Fatalf("usage: mcphttp [-token FILE] URL list|call TOOL [K=V...]")
	}
	out, err := mcpHTTP(args[0], headers, args[1:])
	if err != nil {
		if !neg {
			ts.Fatalf("mcphttp: %v", err)
		}
		fmt.Fprintln(ts.Stderr(), err)
		return
	}
	if neg {
		ts.Fatalf("mcphttp: succeeded, want a failure")
	}
	fmt.Fprint(ts.Stdout(), out)
}

func mcpHTTP(url string, headers map[string]string, what []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	tr, err := transport.NewStreamableHTTP(url, transport.WithHTTPHeaders(headers))
	if err != nil {
		return "", err
	}
	c := client.NewClient(tr)
	if err := c.Start(ctx); err != nil {
		return "", err
	}
	defer c.Close()
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "mcphttp", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		return "", err
	}
	var b strings.Builder
	switch what[0] {
	case "list":
		res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
		if err != nil {
			return "", err
		}
		for _, t := range res.Tools {
			b.WriteString(t.Name + "\n")
		}
	case "call":
		var req mcp.CallToolRequest
		req.Params.Name = what[1]
		arguments := map[string]any{}
		for _, kv := range what[2:] {
			k, v, _ := strings.Cut(kv, "=")
			var value any
			if json.Unmarshal([]byte(v), &value) != nil {
				value = v
			}
			arguments[k] = value
		}
		req.Params.Arguments = arguments
		res, err := c.CallTool(ctx, req)
		if err != nil {
			return "", err
		}
		if res.IsError {
			b.WriteString("isError: true\n")
		}
		for _, content := range res.Content {
			if t, ok := content.(mcp.TextContent); ok {
				b.WriteString(t.Text + "\n")
			}
		}
	default:
		return "", fmt.Errorf("unknown action %q", what[0])
	}
	return b.String(), nil
}
