package hub

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/search"
	"github.com/chronicle-dev/chronicle/hub/tokens"
)

// In search mode an endpoint lists three meta-tools (and the tools `always`
// matches) instead of every tool: search_tools and describe_tools answer
// from the endpoint's view, whose index holds exactly the tools it offers,
// and call_tool checks the arguments against the tool's schema and then
// calls it through the one call path, like a direct tools/call. A direct
// tools/call of any offered tool keeps working (unvalidated).

// metaTools returns the meta-tools with their handlers, registered next to
// the catalogue's tools; toolFilter lists them only where the mode is
// search.
func (h *callPath) metaTools() []server.ServerTool {
	defs := search.MetaTools()
	return []server.ServerTool{
		{Tool: defs[0], Handler: h.searchTools},
		{Tool: defs[1], Handler: h.describeTools},
		{Tool: defs[2], Handler: h.callTool},
	}
}

// isMetaTool reports whether name is one of the meta-tools.
func isMetaTool(name string) bool {
	return name == search.SearchToolsName || name == search.DescribeToolsName || name == search.CallToolName
}

func (h *callPath) searchTools(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	_, v := h.scopes.View(ctx)
	return forRevision(ctx, search.SearchTools(v.Index(), req)), nil
}

func (h *callPath) describeTools(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	_, v := h.scopes.View(ctx)
	return forRevision(ctx, search.DescribeTools(v.Index(), req)), nil
}

// callTool validates a call_tool request and routes it through the one call
// path with the request's own _meta (progress token), its context
// (cancellation) and its session (sampling, elicitation).
func (h *callPath) callTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	_, v := h.scopes.View(ctx)
	call, bad := search.CheckCall(v.Index(), req)
	if bad != nil {
		return forRevision(ctx, bad), nil
	}
	res, err := h.call(ctx, relay.CallerOf(ctx), call.Name, json.RawMessage(call.Arguments), req.Params.Meta)
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return res, nil
}

// structuredSince is the first protocol revision with tool output schemas
// and structured content.
const structuredSince = "2025-06-18"

// olderRevision reports whether the request's protocol revision predates
// structured tool results. Revisions are dates, so they compare as text.
func olderRevision(ctx context.Context) bool {
	v := server.RequestProtocolVersion(ctx)
	return v != "" && v < structuredSince
}

// forRevision drops a meta-tool result's structured content for a client
// of an older revision: the same JSON is its text.
func forRevision(ctx context.Context, res *mcp.CallToolResult) *mcp.CallToolResult {
	if res != nil && olderRevision(ctx) {
		res.StructuredContent = nil
	}
	return res
}

// metaToolFor returns a meta-tool as a client of the request's revision
// sees it: without an output schema before 2025-06-18.
func metaToolFor(ctx context.Context, t mcp.Tool) mcp.Tool {
	if olderRevision(ctx) {
		t.RawOutputSchema = nil
		t.OutputSchema = mcp.ToolOutputSchema{}
	}
	return t
}

// metaTokens is the cost of the three meta-tools as listed in search mode.
var metaTokens = sync.OnceValue(func() int { return tokens.Tools(search.MetaTools()) })
