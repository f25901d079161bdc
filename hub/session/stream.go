package session

import "context"

// A Stream is the response stream of one client request over Streamable
// HTTP (the transport's). What the call path tells the client about the
// request goes out on it, in order and before the response: progress
// above all, which MCP wants on the request's own stream and which mcp-go
// would queue on a channel the session's other streams read too
// (decision 0200).
type Stream interface {
	// Notify sends the notification method with params on the stream. It
	// reports false when the stream cannot carry it (the response has
	// gone, or the client takes no event stream): the caller then sends
	// it the way it would without a stream.
	Notify(method string, params any) bool
	// Poll ends the client's connection of the stream before the
	// response, as an upstream ended the hub's (SEP-1699 polling): the
	// client resumes it with a GET carrying Last-Event-ID. It reports
	// false when the stream cannot be resumed (2026-07-28, or no session).
	Poll() bool
}

// WithStream returns ctx carrying the response stream of its request.
func WithStream(ctx context.Context, s Stream) context.Context {
	return context.WithValue(ctx, streamKey, s)
}

// StreamOf returns the response stream of a request's context, or nil.
func StreamOf(ctx context.Context) Stream {
	s, _ := ctx.Value(streamKey).(Stream)
	return s
}
