package rpc

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// ListTools lists tools with requests of the hub's own, page by page, so
// that each tool's schemas can be kept as the raw JSON the upstream sent.
// meta is the _meta to send with each page (the 2026-07-28 revision's
// per-request metadata, the method then in its header too), or nil.
func ListTools(ctx context.Context, tr transport.Interface, meta map[string]any) ([]mcp.Tool, error) {
	var tools []mcp.Tool
	seen := map[string]bool{}
	cursor := ""
	for {
		params := map[string]any{}
		if meta != nil {
			params["_meta"] = meta
		}
		if cursor != "" {
			params["cursor"] = cursor
		}
		req := NewRequest(string(mcp.MethodToolsList), params)
		if meta != nil {
			req = NewModernRequest(string(mcp.MethodToolsList), params)
		}
		resp, err := tr.SendRequest(ctx, req)
		if err != nil {
			return nil, transport.NewError(err)
		}
		if resp.Error != nil {
			return nil, resp.Error.AsError()
		}
		var page struct {
			Tools      []Tool `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(resp.Result, &page); err != nil {
			return nil, fmt.Errorf("decode: %w", err)
		}
		for _, w := range page.Tools {
			tools = append(tools, w.MCP())
		}
		if page.NextCursor == "" {
			return tools, nil
		}
		if seen[page.NextCursor] {
			return nil, fmt.Errorf("the upstream repeated the cursor %q", page.NextCursor)
		}
		seen[page.NextCursor] = true
		cursor = page.NextCursor
	}
}

// A Tool decodes a listed tool with its schemas left raw: the outer fields
// shadow the embedded typed ones, which would drop keywords such as $defs.
type Tool struct {
	mcp.Tool
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// emptySchema stands in for a tool that sent no input schema, which MCP
// requires; it accepts an object of anything.
var emptySchema = json.RawMessage(`{"type":"object"}`)

// MCP returns the tool as mcp-go's, its schemas in RawInputSchema and
// RawOutputSchema exactly as sent (an absent input schema becomes
// {"type":"object"}).
func (w Tool) MCP() mcp.Tool {
	t := w.Tool
	t.RawInputSchema = w.InputSchema
	if isNull(t.RawInputSchema) {
		t.RawInputSchema = emptySchema
	}
	if !isNull(w.OutputSchema) {
		t.RawOutputSchema = w.OutputSchema
	}
	return t
}

func isNull(b json.RawMessage) bool {
	return len(b) == 0 || string(b) == "null"
}

// FindTool returns the tool of tools named name, nil if none is.
func FindTool(tools []mcp.Tool, name string) *mcp.Tool {
	for i := range tools {
		if tools[i].Name == name {
			return &tools[i]
		}
	}
	return nil
}
