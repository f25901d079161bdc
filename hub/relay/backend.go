package relay

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A Backend is one service behind the hub: an upstream server, or a service
// chronicle runs itself (the Chronova bridge). What a backend cannot do it
// answers with an error, so the call path chooses by what a request asks,
// never by the backend's type.
type Backend interface {
	List(ctx context.Context) (catalog.Listing, error)
	// Request passes one request on as the client sent it and returns the
	// raw result; caller is whom it is made for.
	Request(ctx context.Context, caller *Caller, method string, params any) (json.RawMessage, error)
	// RequestEra is Request, sent in the 2026-07-28 revision when the
	// client speaks it (or what the request names, a tool or a prompt, is
	// offered in that revision only) and the service does too.
	RequestEra(ctx context.Context, caller *Caller, method string, params any, name string) (json.RawMessage, error)
	// ModernOnly reports whether what a request of method names is
	// offered in the 2026-07-28 revision only.
	ModernOnly(method, name string) bool
	// Polls reports whether the service may end a call's stream before
	// its answer (SSE polling, SEP-1699): the hub then ends its client's
	// stream too, so it serves such a call on a goroutine of its own.
	Polls() bool
	// RequestTask calls a tool the service offers only as a task: it sends
	// the tools/call as a task, waits for the task's result and returns it
	// raw; ending ctx cancels the task (decision 0210).
	RequestTask(ctx context.Context, caller *Caller, params any) (json.RawMessage, error)
	CallTool(ctx context.Context, name string, args any) (*mcp.CallToolResult, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error)
	ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error)
}

// A LocalBackend serves a service from an mcp-go server in this process,
// calling its handlers directly: no transport, and tool schemas stay exactly
// as registered.
type LocalBackend struct {
	Server *server.MCPServer
}

func (l LocalBackend) List(context.Context) (catalog.Listing, error) {
	var out catalog.Listing
	for _, t := range l.Server.ListTools() {
		out.Tools = append(out.Tools, t.Tool)
	}
	sort.Slice(out.Tools, func(i, j int) bool { return out.Tools[i].Name < out.Tools[j].Name })
	return out, nil
}

// Request serves tools/call in process; the bridge offers nothing else.
func (l LocalBackend) Request(ctx context.Context, _ *Caller, method string, params any) (json.RawMessage, error) {
	if method != string(mcp.MethodToolsCall) {
		return nil, fmt.Errorf("this service does not answer %s", method)
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	var p struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, err
	}
	res, err := l.CallTool(ctx, p.Name, p.Arguments)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// RequestEra is Request: the bridge speaks one revision.
func (l LocalBackend) RequestEra(ctx context.Context, c *Caller, method string, params any, _ string) (json.RawMessage, error) {
	return l.Request(ctx, c, method, params)
}

// ModernOnly is false: the bridge offers everything in every revision.
func (LocalBackend) ModernOnly(string, string) bool { return false }

// Polls is false: the bridge answers in process.
func (LocalBackend) Polls() bool { return false }

// RequestTask refuses: the bridge offers no task-only tool.
func (LocalBackend) RequestTask(context.Context, *Caller, any) (json.RawMessage, error) {
	return nil, fmt.Errorf("this service offers no tasks")
}

func (l LocalBackend) CallTool(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	t := l.Server.GetTool(name)
	if t == nil {
		return nil, fmt.Errorf("no tool %q", name)
	}
	var req mcp.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	return t.Handler(ctx, req)
}

func (l LocalBackend) GetPrompt(context.Context, string, map[string]string) (*mcp.GetPromptResult, error) {
	return nil, fmt.Errorf("this service has no prompts")
}

func (l LocalBackend) ReadResource(context.Context, string) (*mcp.ReadResourceResult, error) {
	return nil, fmt.Errorf("this service has no resources")
}
