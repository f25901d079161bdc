package rpc

// An RPCError is a JSON-RPC error the upstream answered with; the hub passes
// its code on.
type RPCError struct {
	Code    int
	Message string
	Data    any
}

func (e *RPCError) Error() string { return e.Message }

// A Rejection is the JSON-RPC error an upstream answered a 2026-07-28
// request with: in that revision an error is how a server refuses, for
// example, a requestState that fails its integrity check, so the hub
// answers its client with an error too.
type Rejection struct{ Err *RPCError }

func (r *Rejection) Error() string { return r.Err.Error() }
func (r *Rejection) Unwrap() error { return r.Err }
