package era

import (
	"context"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
)

// A Conn is the session-era connection of one upstream session. Its zero
// value with Open set is ready; its methods are safe for concurrent use.
type Conn struct {
	// Open makes and initializes the session-era client; an error means
	// the upstream refused the session era, and it is not asked again.
	Open func(ctx context.Context) (*client.Client, error)

	mu      sync.Mutex
	opened  bool
	client  *client.Client
	err     error
	tools   map[string]bool // what it lists; nil if unknown
	prompts map[string]bool
}

// Client returns the session-era client, opening it on first need.
func (c *Conn) Client(ctx context.Context) (*client.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.opened {
		c.opened = true
		c.client, c.err = c.Open(ctx)
		if c.err == nil {
			c.tools, c.prompts = names(ctx, c.client)
		}
	}
	return c.client, c.err
}

// StatelessOnly reports whether a request of method naming name goes in
// the 2026-07-28 revision whatever its client speaks: the session era, once
// opened, was refused or does not offer name. Before it is opened, false.
func (c *Conn) StatelessOnly(method, name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.opened {
		return false
	}
	if c.err != nil {
		return true
	}
	switch mcp.MCPMethod(method) {
	case mcp.MethodToolsCall:
		return c.tools != nil && !c.tools[name]
	case mcp.MethodPromptsGet:
		return c.prompts != nil && !c.prompts[name]
	}
	return false
}

// Transport returns the session-era client's transport, nil if none is
// open.
func (c *Conn) Transport() transport.Interface {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.client == nil {
		return nil
	}
	return c.client.GetTransport()
}

// Close closes the session-era client, if one was opened.
func (c *Conn) Close() {
	c.mu.Lock()
	cl := c.client
	c.mu.Unlock()
	if cl != nil {
		_ = cl.Close()
	}
}

// names lists what a session-era client's upstream offers, by name.
func names(ctx context.Context, c *client.Client) (tools, prompts map[string]bool) {
	caps := c.GetServerCapabilities()
	if caps.Tools != nil {
		if list, err := rpc.ListTools(ctx, c.GetTransport(), nil); err == nil {
			tools = map[string]bool{}
			for _, t := range list {
				tools[t.Name] = true
			}
		}
	}
	if caps.Prompts != nil {
		if res, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{}); err == nil {
			prompts = map[string]bool{}
			for _, p := range res.Prompts {
				prompts[p.Name] = true
			}
		}
	}
	return tools, prompts
}
