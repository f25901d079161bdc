package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// A Catalog is what one service offers. Its slices are shared: read them,
// never modify them.
type Catalog struct {
	Service string
	// Tools keep their schemas exactly as the upstream sent them, in
	// RawInputSchema and RawOutputSchema (the typed InputSchema would drop
	// keywords such as $defs); InputSchema and OutputSchema are left empty.
	Tools             []mcp.Tool
	Prompts           []mcp.Prompt
	Resources         []mcp.Resource
	ResourceTemplates []mcp.ResourceTemplate
	Listed            time.Time
	// ModernOnly and ModernOnlyPrompts name the tools and the prompts only
	// the upstream's 2026-07-28 revision offers: requests for them go
	// through that revision whatever the client speaks (modern.go).
	ModernOnly        map[string]bool
	ModernOnlyPrompts map[string]bool
	// Err is set, by ListAll, when the service could not be listed.
	Err error
}

// list asks the session's peer for everything it offers, kind by kind as
// its capabilities declare them.
func list(ctx context.Context, s *session) (*Catalog, error) {
	caps := s.client.GetServerCapabilities()
	c := &Catalog{Listed: time.Now()}
	var err error
	if caps.Tools != nil {
		if c.Tools, err = listTools(ctx, s.client.GetTransport(), nil); err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
	}
	if caps.Prompts != nil {
		res, err := s.client.ListPrompts(ctx, mcp.ListPromptsRequest{})
		if err != nil {
			return nil, fmt.Errorf("prompts/list: %w", err)
		}
		c.Prompts = res.Prompts
	}
	if caps.Resources != nil {
		res, err := s.client.ListResources(ctx, mcp.ListResourcesRequest{})
		if err != nil {
			return nil, fmt.Errorf("resources/list: %w", err)
		}
		c.Resources = res.Resources
		// Templates are optional even where resources are offered: a
		// server that refuses to list them simply has none.
		tpl, err := s.client.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
		var te *transport.Error
		switch {
		case err == nil:
			c.ResourceTemplates = tpl.ResourceTemplates
		case errors.As(err, &te):
			return nil, fmt.Errorf("resources/templates/list: %w", err)
		}
	}
	return c, nil
}

// rawID numbers the requests the package sends past mcp-go's client; they
// are strings, so they never collide with the client's numeric ids.
var rawID atomic.Int64

// listTools lists tools with requests of its own, page by page, so that
// each tool's schemas can be kept as the raw JSON the upstream sent.
// meta is the _meta to send with each page (the 2026-07-28 revision's
// per-request metadata), or nil.
func listTools(ctx context.Context, tr transport.Interface, meta map[string]any) ([]mcp.Tool, error) {
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
		req := transport.JSONRPCRequest{
			JSONRPC: mcp.JSONRPC_VERSION,
			ID:      mcp.NewRequestId(fmt.Sprintf("chronicle-%d", rawID.Add(1))),
			Method:  string(mcp.MethodToolsList),
			Params:  params,
		}
		if meta != nil {
			req.Header = http.Header{methodHeader: {string(mcp.MethodToolsList)}}
		}
		resp, err := tr.SendRequest(ctx, req)
		if err != nil {
			return nil, transport.NewError(err)
		}
		if resp.Error != nil {
			return nil, resp.Error.AsError()
		}
		var page struct {
			Tools      []wireTool `json:"tools"`
			NextCursor string     `json:"nextCursor"`
		}
		if err := json.Unmarshal(resp.Result, &page); err != nil {
			return nil, fmt.Errorf("decode: %w", err)
		}
		for _, w := range page.Tools {
			tools = append(tools, w.tool())
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

// A wireTool decodes a tool with its schemas left raw: the outer fields
// shadow the embedded typed ones.
type wireTool struct {
	mcp.Tool
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// emptySchema stands in for a tool that sent no input schema, which MCP
// requires; it accepts an object of anything.
var emptySchema = json.RawMessage(`{"type":"object"}`)

func (w wireTool) tool() mcp.Tool {
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
