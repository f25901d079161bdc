package hub

import (
	"context"
	"fmt"
	"sort"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A backend is one service behind the hub: an upstream server, or a service
// chronicle runs itself (the Chronova bridge).
type backend interface {
	List(ctx context.Context) (Listing, error)
	CallTool(ctx context.Context, name string, args any) (*mcp.CallToolResult, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error)
	ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error)
}

// A localBackend serves a service from an mcp-go server in this process,
// calling its handlers directly: no transport, and tool schemas stay exactly
// as registered.
type localBackend struct {
	srv *server.MCPServer
}

func (l localBackend) List(context.Context) (Listing, error) {
	var out Listing
	for _, t := range l.srv.ListTools() {
		out.Tools = append(out.Tools, t.Tool)
	}
	sort.Slice(out.Tools, func(i, j int) bool { return out.Tools[i].Name < out.Tools[j].Name })
	return out, nil
}

func (l localBackend) CallTool(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	t := l.srv.GetTool(name)
	if t == nil {
		return nil, fmt.Errorf("no tool %q", name)
	}
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	return t.Handler(ctx, req)
}

func (l localBackend) GetPrompt(context.Context, string, map[string]string) (*mcp.GetPromptResult, error) {
	return nil, fmt.Errorf("this service has no prompts")
}

func (l localBackend) ReadResource(context.Context, string) (*mcp.ReadResourceResult, error) {
	return nil, fmt.Errorf("this service has no resources")
}
