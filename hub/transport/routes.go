package transport

import (
	"net/http"

	"github.com/chronicle-dev/chronicle/hub/access"
)

// A Route is one row of the hub's HTTP surface: a ServeMux pattern (method
// and path), the guard that every request to it passes first, and what
// serves it. Every route the hub answers is a row of Transport.routes; nothing
// is registered on the mux any other way, so the table is the whole
// security model (docs/decisions/0065).
type Route struct {
	Pattern string
	Rule    access.Rule
	Handler http.Handler
}

// routes is the hub's HTTP surface:
//
//	/mcp                      Streamable HTTP, every revision (2026-07-28 stateless on the same path)
//	/mcp?root=DIR             the same, scoped to the project folder DIR
//	/mcp/profile/NAME[?root=] a profile's endpoint
//	/mcp/service/NAME[?root=] one service under the names its server gives (rewrite.go)
//	/sse + /message           HTTP+SSE for 2024-11-05 clients
//	/health                   liveness
//	/api/…                    the management API (docs/api.md)
//	/, /console/FILE          the web console (hub/console)
//
// The MCP endpoints keep the methods their transports define: POST for a
// message, GET for a stream, DELETE to end a session.
func (h *Transport) routes(mcpHTTP, sse, message http.Handler) []Route {
	mcp := h.serveEndpoint(mcpHTTP, "/mcp")
	named := h.serveEndpoint(mcpHTTP, "") // the endpoint a path names: a profile or a service
	api := h.core.API
	call := http.HandlerFunc(api.CallTool)
	return []Route{
		{"POST /mcp", access.MCPRule, mcp},
		{"GET /mcp", access.MCPRule, mcp},
		{"DELETE /mcp", access.MCPRule, mcp},
		{"POST /mcp/profile/{name}", access.MCPRule, named},
		{"GET /mcp/profile/{name}", access.MCPRule, named},
		{"DELETE /mcp/profile/{name}", access.MCPRule, named},
		{"POST /mcp/service/{service}", access.MCPRule, named},
		{"GET /mcp/service/{service}", access.MCPRule, named},
		{"DELETE /mcp/service/{service}", access.MCPRule, named},
		{"GET /sse", access.MCPRule, h.serveLegacy(sse)},
		{"POST /message", access.MessageRule, h.serveLegacy(message)},

		{"GET /health", access.HealthRule, http.HandlerFunc(api.Health)},

		{"GET /{$}", access.ConsoleRule, http.HandlerFunc(api.Page)},
		{"GET /console/{file}", access.ConsoleRule, http.HandlerFunc(api.File)},

		// The first paths of the management API, kept as they were: the
		// same answers as their /api/mcp/… twins.
		{"GET /api/status", access.ReadRule, http.HandlerFunc(api.Status)},
		{"GET /api/services", access.ReadRule, http.HandlerFunc(api.Services)},
		{"GET /api/tools", access.ReadRule, http.HandlerFunc(api.Tools)},
		{"GET /api/log", access.ReadRule, http.HandlerFunc(api.Log)},
		{"POST /api/call", access.ChangeRule, call},

		{"GET /api/mcp/status", access.ReadRule, http.HandlerFunc(api.Status)},
		{"GET /api/mcp/services", access.ReadRule, http.HandlerFunc(api.Services)},
		{"GET /api/mcp/tools", access.ReadRule, http.HandlerFunc(api.Tools)},
		{"GET /api/mcp/log", access.ReadRule, http.HandlerFunc(api.LiveLog)},
		{"POST /api/mcp/call", access.ChangeRule, call},
		{"POST /api/mcp/services/{name}/restart", access.ChangeRule, http.HandlerFunc(api.Restart)},
		{"POST /api/mcp/services/{name}/login", access.ChangeRule, http.HandlerFunc(api.Login)},
		{"GET /api/mcp/scan", access.ReadRule, http.HandlerFunc(api.Scan)},
		{"GET /api/mcp/review", access.ReadRule, http.HandlerFunc(api.Review)},

		{"GET /api/skills", access.ReadRule, http.HandlerFunc(api.Skills)},
		{"GET /api/skills/{name}", access.ReadRule, http.HandlerFunc(api.Skill)},
		{"GET /api/skills/{name}/snapshots", access.ReadRule, http.HandlerFunc(api.Snapshots)},
		{"POST /api/skills/{name}/restore", access.ChangeRule, http.HandlerFunc(api.Restore)},
		{"PUT /api/skills/{name}/meta", access.ChangeRule, http.HandlerFunc(api.Meta)},
	}
}

// guarded serves next behind rule, with the body limit.
func (h *Transport) guarded(rule access.Rule, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.core.Guard().Serve(w, r, rule, next)
	})
}

// Routes returns the route table as the hub serves it, for its test and
// docs/api.md (no MCP transport behind the MCP rows).
func (h *Transport) Routes() []Route { return h.routes(nil, nil, nil) }
