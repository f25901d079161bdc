package task

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/seal"
	"github.com/chronicle-dev/chronicle/hub/session"
)

// A Handle is what a handle of the hub's seals: the upstream task it names
// and the caller it was given to.
type Handle struct {
	Service string `json:"s"`
	Task    string `json:"t"` // the upstream's task id
	Caller  string `json:"c"` // Session or Stateless: whose it is
}

// Session is the caller of a session-era client: its session id, so that
// another client of a shared upstream session cannot use its handles.
func Session(sid string) string { return sid }

// Stateless is the caller of a 2026-07-28 client, which has no session:
// the endpoint it called (path and root, session.Endpoint.Key). The hub
// knows its local clients by one token, so on one endpoint every holder
// of it is the same caller to the hub (decision 0235); another endpoint —
// another project's root, a profile, one service's endpoint — is another
// caller. A session id never starts so.
func Stateless(endpointKey string) string { return "stateless " + endpointKey }

// ErrUnknown refuses a handle that is not the hub's, not the caller's, or
// names a service out of the caller's reach: all look alike to the
// client, so none tells which services exist.
var ErrUnknown = errors.New("unknown task")

// A Router seals the hub's handles, opens them, and sends a client's
// tasks requests to the upstream task a handle names.
type Router struct {
	Sealer *seal.Sealer
	Masker *mask.Masker
	// Backend returns a service's backend, nil when it is no longer
	// offered.
	Backend func(service string) relay.Backend
	// Reaches reports whether a request's endpoint reaches the service.
	Reaches func(ctx context.Context, service string) bool
	// Refusal is the error a client is answered with when an upstream
	// failed a request: its own JSON-RPC error, masked, as it sent it;
	// any other failure as -32603 naming the service.
	Refusal func(service string, err error) session.RPCError
}

// Seal returns the hub's handle of an upstream task.
func (r *Router) Seal(h Handle) string {
	b, _ := json.Marshal(h) // three strings: never fails
	return r.Sealer.Seal(b)
}

// Open returns what a handle of the hub's names, for the caller (Session
// or Stateless) of a request whose context is ctx.
func (r *Router) Open(ctx context.Context, handle, caller string) (Handle, error) {
	var h Handle
	b, err := r.Sealer.Open(handle)
	if err != nil || json.Unmarshal(b, &h) != nil || h.Caller != caller || !r.Reaches(ctx, h.Service) {
		return Handle{}, ErrUnknown
	}
	return h, nil
}
