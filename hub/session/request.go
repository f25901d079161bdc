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

type ctxKey int

const (
	rootKey     ctxKey = iota // the folder a request names
	callingKey                // the tool a tools/call request names
	endpointKey               // the Endpoint a request arrived at
	replyKey                  // the *Reply a request's error is left in (reply.go)
	streamKey                 // the Stream of a request (stream.go)
)

// WithEndpoint returns ctx carrying the endpoint a request arrived at.
func WithEndpoint(ctx context.Context, ep Endpoint) context.Context {
	return context.WithValue(ctx, endpointKey, ep)
}

// EndpointOf returns the endpoint of a request's context.
func EndpointOf(ctx context.Context) (Endpoint, bool) {
	e, ok := ctx.Value(endpointKey).(Endpoint)
	return e, ok
}

// WithRoot returns ctx carrying the folder a request names.
func WithRoot(ctx context.Context, root string) context.Context {
	return context.WithValue(ctx, rootKey, root)
}

// RootOf returns the folder a request's context names, or "".
func RootOf(ctx context.Context) string {
	r, _ := ctx.Value(rootKey).(string)
	return r
}

// WithCalling returns ctx carrying the tool a tools/call request calls.
func WithCalling(ctx context.Context, tool string) context.Context {
	return context.WithValue(ctx, callingKey, tool)
}

// CallingOf returns the tool a request's context says it calls; false for
// a context that says nothing (stdio requests have no context of their own).
func CallingOf(ctx context.Context) (string, bool) {
	n, ok := ctx.Value(callingKey).(string)
	return n, ok
}

// Carry copies what a transport put in from's context into to's: mcp-go
// makes its own request context.
func Carry(to, from context.Context) context.Context {
	for _, k := range []ctxKey{rootKey, callingKey, endpointKey, replyKey, streamKey} {
		if v := from.Value(k); v != nil {
			to = context.WithValue(to, k, v)
		}
	}
	return to
}

// StdioID is mcp-go's id of the one stdio session.
const StdioID = "stdio"
