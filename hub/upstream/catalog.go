package upstream

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
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
	// Err is set, by ListAll, when the service could not be listed.
	Err error
}

// list asks the session's peer for everything it offers, kind by kind as
// its capabilities declare them; meta is the 2026-07-28 revision's _meta
// for a stateless upstream's tools/list (mcp-go's client adds it to the
// others).
func list(ctx context.Context, s *session, meta map[string]any) (*Catalog, error) {
	caps := s.client.GetServerCapabilities()
	c := &Catalog{Listed: time.Now()}
	var err error
	if caps.Tools != nil {
		if c.Tools, err = rpc.ListTools(ctx, s.client.GetTransport(), meta); err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		if meta != nil {
			// A client of the 2026-07-28 revision over Streamable HTTP
			// excludes a tool whose x-mcp-header annotations break
			// SEP-2243's rules, so that it is never called with headers
			// mirrored from them (mcp-go's client does the same).
			c.Tools = slices.DeleteFunc(c.Tools, func(t mcp.Tool) bool { return mcp.ValidateParamHeaderAnnotations(&t) != nil })
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
