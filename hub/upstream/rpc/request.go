package rpc

import (
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The HTTP headers a 2026-07-28 request mirrors its method and the name
// it calls in (SEP-2243); servers refuse a request without the first.
const (
	MethodHeader = "Mcp-Method"
	NameHeader   = "Mcp-Name"
)

// counter numbers the requests the hub sends past mcp-go's client; their
// ids are strings, so they never collide with the client's numeric ids.
var counter atomic.Int64

// NewID returns a fresh id for a request of the hub's own.
func NewID() string {
	return "chronicle-" + strconv.FormatInt(counter.Add(1), 10)
}

// NewRequest is a request of the hub's own with a fresh id.
func NewRequest(method string, params any) transport.JSONRPCRequest {
	return transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION,
		ID:      mcp.NewRequestId(NewID()),
		Method:  method,
		Params:  params,
	}
}

// NewModernRequest is NewRequest in the 2026-07-28 revision: the method is
// mirrored in its header.
func NewModernRequest(method string, params any) transport.JSONRPCRequest {
	r := NewRequest(method, params)
	r.Header = http.Header{MethodHeader: {method}}
	return r
}
