package session

import "context"

// What a transport learns of a request before mcp-go decodes it travels in
// the request's context to the call path: the endpoint it arrived at, the
// folder it names (its scope) and, for a tools/call, the tool it calls.

// An Endpoint is where a request arrived: the path and the scope it names.
type Endpoint struct {
	Path string // "/mcp", "/mcp/profile/NAME", "/mcp/service/NAME", "/sse", "stdio"
	Root string // from ?root= or X-Chronicle-Root, "" for none
}

// Key identifies the endpoint: a session is bound to the key it was made on.
func (e Endpoint) Key() string { return e.Path + "?root=" + e.Root }

// The values are one struct under one key: each With… makes a copy with
// one member set (a request's values never change once set), so that a
// lookup and Carry walk the context's chain once.
type values struct {
	endpoint    Endpoint
	hasEndpoint bool
	root        string // the folder a request names
	calling     string // the tool a tools/call request names
	hasCalling  bool
	reply       *Reply // the Reply a request's error is left in (reply.go)
	stream      Stream // the Stream of a request (stream.go)
}

type ctxKey struct{}

func valuesOf(ctx context.Context) *values {
	v, _ := ctx.Value(ctxKey{}).(*values)
	return v
}

// with returns ctx carrying its values with set applied to a copy.
func with(ctx context.Context, set func(*values)) context.Context {
	var v values
	if cur := valuesOf(ctx); cur != nil {
		v = *cur
	}
	set(&v)
	return context.WithValue(ctx, ctxKey{}, &v)
}

// WithEndpoint returns ctx carrying the endpoint a request arrived at.
func WithEndpoint(ctx context.Context, ep Endpoint) context.Context {
	return with(ctx, func(v *values) { v.endpoint, v.hasEndpoint = ep, true })
}

// EndpointOf returns the endpoint of a request's context.
func EndpointOf(ctx context.Context) (Endpoint, bool) {
	if v := valuesOf(ctx); v != nil && v.hasEndpoint {
		return v.endpoint, true
	}
	return Endpoint{}, false
}

// WithRoot returns ctx carrying the folder a request names.
func WithRoot(ctx context.Context, root string) context.Context {
	return with(ctx, func(v *values) { v.root = root })
}

// RootOf returns the folder a request's context names, or "".
func RootOf(ctx context.Context) string {
	if v := valuesOf(ctx); v != nil {
		return v.root
	}
	return ""
}

// WithCalling returns ctx carrying the tool a tools/call request calls.
func WithCalling(ctx context.Context, tool string) context.Context {
	return with(ctx, func(v *values) { v.calling, v.hasCalling = tool, true })
}

// CallingOf returns the tool a request's context says it calls; false for
// a context that says nothing (stdio requests have no context of their own).
func CallingOf(ctx context.Context) (string, bool) {
	if v := valuesOf(ctx); v != nil && v.hasCalling {
		return v.calling, true
	}
	return "", false
}

// Carry copies what a transport put in from's context into to's: mcp-go
// makes its own request context. What from says replaces what to says.
func Carry(to, from context.Context) context.Context {
	f := valuesOf(from)
	if f == nil {
		return to
	}
	t := valuesOf(to)
	if t == nil {
		return context.WithValue(to, ctxKey{}, f) // never changed: shared
	}
	v := *t
	if f.hasEndpoint {
		v.endpoint, v.hasEndpoint = f.endpoint, true
	}
	if f.root != "" {
		v.root = f.root
	}
	if f.hasCalling {
		v.calling, v.hasCalling = f.calling, true
	}
	if f.reply != nil {
		v.reply = f.reply
	}
	if f.stream != nil {
		v.stream = f.stream
	}
	return context.WithValue(to, ctxKey{}, &v)
}

// StdioID is mcp-go's id of the one stdio session.
const StdioID = "stdio"
