package session

import (
	"context"
	"encoding/json"
	"sync"
)

// A Reply is where the call path leaves the JSON-RPC error a request is to
// be answered with, for the transport that writes the answer. mcp-go
// (v1.2.1) answers any error of a tool, prompt or resource handler as
// -32603 (on HTTP 200 in the 2026-07-28 revision) and a resource it has no
// handler for without the URI in data: a service's own error (such as
// -32021 MissingRequiredClientCapability, which that revision answers on
// HTTP 400) would not reach the client as the service sent it. The
// transport puts a Reply in each request's context and, when mcp-go's
// answer is an error, writes the Reply's members in its place (decision
// 0205).
//
// A Reply holds a result the same way: mcp-go's tool handlers return a
// tool result, and a task-augmented tools/call is answered with the task
// the hub made for it (CreateTaskResult, decision 0211).
type Reply struct {
	mu      sync.Mutex
	code    int
	message string
	data    json.RawMessage
	result  json.RawMessage
}

// An RPCError is what a Reply holds: a JSON-RPC error's members, each
// zero when mcp-go's own is kept.
type RPCError struct {
	Code    int
	Message string
	Data    json.RawMessage
}

// WithReply returns ctx carrying r.
func WithReply(ctx context.Context, r *Reply) context.Context {
	return context.WithValue(ctx, replyKey, r)
}

// ReplyOf returns the Reply of a request's context, or nil (stdio, the
// console's calls).
func ReplyOf(ctx context.Context) *Reply {
	r, _ := ctx.Value(replyKey).(*Reply)
	return r
}

// SetError says the request is answered with the error e: its code,
// message and data, where they are not zero.
func SetError(ctx context.Context, e RPCError) {
	if r := ReplyOf(ctx); r != nil {
		r.mu.Lock()
		r.code, r.message, r.data = e.Code, e.Message, e.Data
		r.mu.Unlock()
	}
}

// Error returns the error the call path set, and whether it set one.
func (r *Reply) Error() (RPCError, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := RPCError{Code: r.code, Message: r.message, Data: r.data}
	return e, e.Code != 0 || e.Message != "" || e.Data != nil
}

// SetResult says the request is answered with the result raw in place of
// the one mcp-go encodes. raw is valid JSON: it is written as it is
// (AnswerJSON).
func SetResult(ctx context.Context, raw json.RawMessage) {
	if r := ReplyOf(ctx); r != nil {
		r.mu.Lock()
		r.result = raw
		r.mu.Unlock()
	}
}

// Result returns the result the call path set, or nil.
func (r *Reply) Result() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.result
}
