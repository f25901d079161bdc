package transport

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/hub/access"
	"github.com/chronicle-dev/chronicle/hub/console"
	"github.com/chronicle-dev/chronicle/hub/session"
	"github.com/chronicle-dev/chronicle/hub/wire"
)

// A Core is what the transports need of the hub: the MCP server they
// serve, its client sessions, the management API, and the call path's say
// on each message. The hub gives it; the transports hold nothing else of
// the hub's.
type Core struct {
	Server *server.MCPServer
	// Listen serves the 2026-07-28 subscriptions/listen streams: an MCP
	// server of its own that declares listChanged, which the hub's does not
	// (decision 0205); nil serves them with Server.
	Listen   *server.MCPServer
	Sessions *session.Registry
	API      *console.API
	Log      *slog.Logger
	Masker   *mask.Masker
	// Context is the hub's lifetime; Go runs fn on a goroutine the hub
	// waits for when it closes, Run on the calling one.
	Context context.Context
	Go      func(fn func())
	Run     func(fn func())
	// Guard returns the transport rules for the current settings.
	Guard func() access.Guard

	// Keep decides whether an outbound message reaches the session cs
	// (nil: a session the hub does not know).
	Keep func(cs *session.Session, m wire.Message) bool
	// Note records a client's message in its session and reports whether
	// it is a request now in flight.
	Note func(cs *session.Session, m wire.Message) bool
	// MakeRoom makes room for a new session under the session cap (see
	// session.Registry.MakeRoom).
	MakeRoom func() (release func(), refused string)
	// HasProfile and HasService say whether an endpoint's profile or
	// service exists; ServiceNames lists the services for a message.
	HasProfile   func(name string) bool
	HasService   func(name string) bool
	ServiceNames func() string
	// CountStateless counts a 2026-07-28 request on an endpoint.
	CountStateless func(endpoint string)
	// StreamOpen is told when a Streamable HTTP session's standalone GET
	// stream is open (mcp-go attached it).
	StreamOpen func(cs *session.Session)
	// Task answers a session-era client's tasks/get, tasks/result,
	// tasks/list or tasks/cancel (body) before mcp-go, which would answer
	// from a task store of its own (decision 0211): the raw result, or the
	// error to answer with. nil leaves them to mcp-go.
	Task func(ctx context.Context, cs *session.Session, body []byte) (json.RawMessage, *session.RPCError)
	// Call takes a client's tools/call (m, peeked from its body; what the
	// call keeps of it, it copies) in place of mcp-go's server — a stdio client's, a
	// session-era Streamable HTTP client's, and a stdio or HTTP+SSE
	// client's that asks for a task of a tool the hub hands it as one
	// (decisions 0235, 0239, 0241): it returns what answers it, or nil when
	// the call is mcp-go's, and whether the answer must run on a goroutine
	// of its own (detach: its service may end the call's stream before
	// the answer, and the client's stream ends then too; decision 0248).
	Call func(ctx context.Context, cs *session.Session, m wire.Message) (answer func() (json.RawMessage, *session.RPCError), detach bool)
	// StatelessTask answers a 2026-07-28 client's tasks/get, tasks/update
	// or tasks/cancel (body), the tasks extension's, which mcp-go does not
	// know (decision 0235). nil leaves them to mcp-go.
	StatelessTask func(ctx context.Context, body []byte) (json.RawMessage, *session.RPCError)
	// Listening is told +1 when a subscriptions/listen stream starts and -1
	// when it ends.
	Listening func(delta int64)

	// SessionIdleTTL ends HTTP sessions idle this long; UnusedSessionTTL
	// those whose client sent nothing after initialize.
	SessionIdleTTL, UnusedSessionTTL time.Duration
	// Service is the one service a stdio client is served under the
	// names the server gives (serve --stdio --service NAME), or "".
	Service string
}

// A Transport serves the hub's MCP server over Streamable HTTP (both
// eras), the legacy HTTP+SSE pair and stdio, behind the one route table.
type Transport struct {
	core Core

	mu      sync.Mutex
	mcpHTTP http.Handler      // mcp-go's Streamable HTTP server, which EndSession asks to end a session
	legacy  *server.SSEServer // mcp-go's HTTP+SSE server, on whose streams the hub answers tasks requests (taskanswer.go)
	listen  http.Handler      // mcp-go's Streamable HTTP server of Core.Listen, or nil
	// listening ends with the hub, or before when EndListens is called,
	// and with it every listen stream (which lasts as long as its client
	// otherwise).
	listening  context.Context
	endListens context.CancelFunc
	sweeping   sync.Once // starts the sweep of unused and idle sessions with the first Handler
	stdioOut   atomic.Pointer[trackingWriter]

	events  *session.EventStore // the event store of mcp-go's streams and the hub's
	streams sync.Map            // event store key → *requestStream, while mcp-go serves its request
}

// New returns the transports of a hub.
func New(core Core) *Transport {
	h := &Transport{core: core, events: session.NewEventStore()}
	parent := core.Context
	if parent == nil {
		parent = context.Background()
	}
	h.listening, h.endListens = context.WithCancel(parent)
	return h
}

// EndListens ends every 2026-07-28 listen stream, open or to come: an HTTP
// server shutting down waits for its requests, and a listen stream's lasts
// until its client leaves.
func (h *Transport) EndListens() { h.endListens() }

// SetServer gives the transports the hub's MCP server, which is made after
// them (its hooks reach the transports through the hub).
func (h *Transport) SetServer(srv *server.MCPServer) { h.core.Server = srv }
