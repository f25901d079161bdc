package hub

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// What the management API and the console (hub/console) ask of the hub:
// the state it serves, its catalogue, a call through the one call path,
// and a restart. They hold no state of the hub's own.

// Resolver returns the one secret resolver of options o (a secret is read
// in one place: engine/secret).
func (o Options) Resolver() secret.Resolver {
	return secret.Resolver{Env: o.Getenv, EnvFile: o.EnvFile, Home: o.Home}
}

// State returns the state the hub serves.
func (h *Hub) State() *state.State {
	return h.settings().State
}

// Catalog returns the catalogue, waiting (as a client's first list does)
// for services not listed yet.
func (h *Hub) Catalog(ctx context.Context) *catalog.Catalog { return h.lister.Catalog(ctx) }

// Call calls a tool through the one call path (policy, scope, timeout,
// masking), as a client of the endpoint c names would.
func (h *Hub) Call(ctx context.Context, c console.Call) (*mcp.CallToolResult, error) {
	ctx = session.WithCalling(ctx, c.Name)
	ep := session.Endpoint{Path: "/mcp"}
	if c.Profile != "" {
		if !h.settings().HasProfile(c.Profile) {
			return nil, fmt.Errorf("%w %s is defined", console.ErrNoProfile, c.Profile)
		}
		ep.Path = "/mcp/profile/" + c.Profile
	}
	if c.Root != "" {
		if ep.Root = wire.RootFromURI(c.Root); ep.Root == "" {
			return nil, fmt.Errorf("%w, not %s", console.ErrBadRoot, c.Root)
		}
		ctx = session.WithRoot(ctx, ep.Root)
	}
	ctx = session.WithEndpoint(ctx, ep)
	var args json.RawMessage
	if c.Arguments != nil {
		b, err := json.Marshal(c.Arguments)
		if err != nil {
			return nil, err
		}
		args = b
	}
	return h.calls.call(ctx, &relay.Caller{Ctx: ctx, Via: "api"}, c.Name, args, nil)
}

// Restart ends a service's process (or connection) and starts it again at
// once, and returns its status then.
func (h *Hub) Restart(ctx context.Context, name string) (console.ServiceStatus, error) {
	if h.settings().Backend(name) == nil {
		return console.ServiceStatus{}, fmt.Errorf("%w %s is offered", console.ErrNoService, name)
	}
	u := h.pool.Shared.Get(name)
	if u == nil {
		return console.ServiceStatus{}, fmt.Errorf("%w: %s", console.ErrBuiltin, name)
	}
	h.inspector.Note("", "restart of "+name+" requested from the console")
	err := u.Restart(ctx)
	var st console.ServiceStatus
	for _, s := range h.Status()["services"].([]console.ServiceStatus) {
		if s.Name == name {
			st = s
		}
	}
	return st, err
}
