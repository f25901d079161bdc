package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/hub/upstream"
)

// upstreams adapts the upstream pool to the hub's backends.
type upstreams struct {
	pool *upstream.Pool
}

func newUpstreams(r secret.Resolver, log *slog.Logger, m *mask.Masker, onChange func(string), h *Hub) *upstreams {
	return &upstreams{pool: upstream.NewPool(upstream.PoolOptions{
		Resolver:       r,
		Masker:         m,
		OnNotification: h.upstreamNotified,
		OnRequest:      h.upstreamAsks,
		Logger:         log,
		OnChange:       onChange,
		ClientInfo:     mcp.Implementation{Name: "chronicle-hub", Version: "1"},
	})}
}

// Reconcile keeps unchanged upstreams running and replaces the others.
func (u *upstreams) Reconcile(services []service.Service) {
	u.pool.Reconcile(services)
}

func (u *upstreams) backend(name string) backend { return poolBackend{u.pool, name} }

func (u *upstreams) status() []ServiceStatus {
	var out []ServiceStatus
	for _, s := range u.pool.Status() {
		out = append(out, ServiceStatus{Name: s.Name, Transport: s.Transport, State: string(s.State), Error: s.Error, PID: s.PID, Restarts: s.Restarts, Tools: s.Tools})
	}
	return out
}

func (u *upstreams) Close() { u.pool.Close() }

// A poolBackend is one upstream, looked up at each use so that a reload
// that replaced it takes effect at once.
type poolBackend struct {
	pool *upstream.Pool
	name string
}

func (b poolBackend) get() (*upstream.Upstream, error) {
	if u := b.pool.Get(b.name); u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("service %s is not running", b.name)
}

func (b poolBackend) List(ctx context.Context) (Listing, error) {
	u, err := b.get()
	if err != nil {
		return Listing{}, err
	}
	c, err := u.Catalog(ctx)
	if err != nil {
		return Listing{}, err
	}
	return Listing{Tools: c.Tools, Prompts: c.Prompts, Resources: c.Resources, Templates: c.ResourceTemplates}, nil
}

func (b poolBackend) Request(ctx context.Context, c *caller, method string, params any) (json.RawMessage, error) {
	u, err := b.get()
	if err != nil {
		return nil, err
	}
	var who any
	if c != nil {
		who = c
	}
	return u.Request(ctx, who, method, params)
}

func (b poolBackend) CallTool(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	u, err := b.get()
	if err != nil {
		return nil, err
	}
	return u.CallTool(ctx, name, args)
}

func (b poolBackend) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	u, err := b.get()
	if err != nil {
		return nil, err
	}
	return u.GetPrompt(ctx, name, args)
}

func (b poolBackend) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	u, err := b.get()
	if err != nil {
		return nil, err
	}
	return u.ReadResource(ctx, uri)
}
