package hub

import (
	"context"
	"fmt"

	"github.com/chronicle-dev/chronicle/hub/task"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/inspect"
	"github.com/chronicle-dev/chronicle/hub/listing"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A callPath is the one call path and the MCP server's handlers: every
// tools/call — a client's, the console's and search mode's call_tool —,
// prompts/get and resources/read goes through it, so that policy, scope,
// stand-ins, timeouts, masking and pass-through are the same for all; it
// registers each new catalogue with mcp-go, and its filters and hooks tell
// mcp-go what each request sees.
type callPath struct {
	srv       *server.MCPServer // set once the hub made it
	settings  func() *relay.Settings
	scopes    *relay.Scopes
	lister    *listing.Lister
	lists     *relay.Announcer
	sessions  *relay.ClientHooks
	pass      *relay.PassThrough
	masker    *mask.Masker
	inspector *inspect.Inspector
	tasks     *task.Sessions // the tasks the hub hands out (tasks.go)
	hooked    *server.Hooks  // what mcp-go runs around a request (hooks), which Call runs too
	// needsLogin returns why a service with an oauth block needs a login,
	// "" when it does not: its tools' stand-in names the command.
	needsLogin func(service string) string
}

// register puts the catalogue into the MCP server and tells the sessions
// that may care that the lists changed.
func (h *callPath) register(c *catalog.Catalog) {
	var tools []server.ServerTool
	for _, t := range c.SortedTools() {
		tools = append(tools, server.ServerTool{Tool: t.Tool, Handler: h.toolHandler(t.Exposed)})
	}
	tools = append(tools, h.metaTools()...)
	h.srv.SetTools(tools...)
	var prompts []server.ServerPrompt
	for _, p := range c.Prompts {
		prompts = append(prompts, server.ServerPrompt{Prompt: p.Prompt, Handler: h.promptHandler(p.Exposed)})
	}
	h.srv.SetPrompts(prompts...)
	var resources []server.ServerResource
	for uri, r := range c.Resources {
		resources = append(resources, server.ServerResource{Resource: r.Resource, Handler: h.resourceHandler(uri)})
	}
	h.srv.SetResources(resources...)
	var templates []server.ServerResourceTemplate
	for key, t := range c.Templates {
		templates = append(templates, server.ServerResourceTemplate{Template: t.Template, Handler: h.templateHandler(key)})
	}
	h.srv.SetResourceTemplates(templates...)
	h.lists.Announce()
}

func (h *callPath) toolHandler(exposed string) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return h.serveCall(ctx, exposed, req)
	}
}

func (h *callPath) promptHandler(exposed string) server.PromptHandlerFunc {
	return func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return h.servePrompt(ctx, exposed, req)
	}
}

func (h *callPath) resourceHandler(uri string) server.ResourceHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		r := h.lister.Catalog(ctx).Resources[uri]
		if r == nil {
			return nil, fmt.Errorf("the resource %s is no longer offered", uri)
		}
		return h.read(ctx, r.Service, uri)
	}
}

// templateHandler reads a resource whose URI matches a template, from the
// template's service, within the session's scope.
func (h *callPath) templateHandler(key string) server.ResourceTemplateHandlerFunc {
	return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		t := h.lister.Catalog(ctx).Templates[key]
		if t == nil {
			return nil, fmt.Errorf("the resource template %s is no longer offered", key)
		}
		return h.read(ctx, t.Service, req.Params.URI)
	}
}

// read reads a resource from a service, within the session's scope.
func (h *callPath) read(ctx context.Context, service, uri string) ([]mcp.ResourceContents, error) {
	if !h.scopes.InScope(ctx, service) {
		return nil, fmt.Errorf("the resource %s belongs to a service of another project", uri)
	}
	b := h.settings().Backend(service)
	if b == nil {
		return nil, fmt.Errorf("the service %s is no longer offered", service)
	}
	res, err := b.ReadResource(ctx, uri)
	if err != nil {
		return nil, h.masker.Err(err)
	}
	return inspect.ForClient(h.masker, res, inspect.DecodeReadResourceResult).Contents, nil
}
