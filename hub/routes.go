package hub

import "net/http"

// A route is one row of the hub's HTTP surface: a ServeMux pattern (method
// and path), the guard that every request to it passes first, and what
// serves it. Every route the hub answers is a row of Hub.routes; nothing
// is registered on the mux any other way, so the table is the whole
// security model (docs/decisions/0065).
type route struct {
	pattern string
	guard   guard
	handler http.Handler
}

// routes is the hub's HTTP surface:
//
//	/mcp                      Streamable HTTP, every revision (2026-07-28 stateless on the same path)
//	/mcp?root=DIR             the same, scoped to the project folder DIR
//	/mcp/profile/NAME[?root=] a profile's endpoint (exposure.go)
//	/mcp/service/NAME[?root=] one service under the names its server gives (service_endpoint.go)
//	/sse + /message           HTTP+SSE for 2024-11-05 clients
//	/health                   liveness
//	/api/…                    the management API (docs/api.md)
//	/, /console/FILE          the web console (console.go)
//
// The MCP endpoints keep the methods their transports define: POST for a
// message, GET for a stream, DELETE to end a session.
func (h *Hub) routes(mcpHTTP, sse, message http.Handler) []route {
	mcp := h.serveEndpoint(mcpHTTP, "/mcp")
	named := h.serveEndpoint(mcpHTTP, "") // the endpoint a path names: a profile or a service
	api := h.api
	call := http.HandlerFunc(api.CallTool)
	return []route{
		{"POST /mcp", mcpGuard, mcp},
		{"GET /mcp", mcpGuard, mcp},
		{"DELETE /mcp", mcpGuard, mcp},
		{"POST /mcp/profile/{name}", mcpGuard, named},
		{"GET /mcp/profile/{name}", mcpGuard, named},
		{"DELETE /mcp/profile/{name}", mcpGuard, named},
		{"POST /mcp/service/{service}", mcpGuard, named},
		{"GET /mcp/service/{service}", mcpGuard, named},
		{"DELETE /mcp/service/{service}", mcpGuard, named},
		{"GET /sse", mcpGuard, h.serveLegacy(sse)},
		{"POST /message", messageGuard, h.serveLegacy(message)},

		{"GET /health", healthGuard, http.HandlerFunc(api.Health)},

		{"GET /{$}", consoleGuard, http.HandlerFunc(api.Page)},
		{"GET /console/{file}", consoleGuard, http.HandlerFunc(api.File)},

		// The first paths of the management API, kept as they were: the
		// same answers as their /api/mcp/… twins.
		{"GET /api/status", readGuard, http.HandlerFunc(api.Status)},
		{"GET /api/services", readGuard, http.HandlerFunc(api.Services)},
		{"GET /api/tools", readGuard, http.HandlerFunc(api.Tools)},
		{"GET /api/log", readGuard, http.HandlerFunc(api.Log)},
		{"POST /api/call", changeGuard, call},

		{"GET /api/mcp/status", readGuard, http.HandlerFunc(api.Status)},
		{"GET /api/mcp/services", readGuard, http.HandlerFunc(api.Services)},
		{"GET /api/mcp/tools", readGuard, http.HandlerFunc(api.Tools)},
		{"GET /api/mcp/log", readGuard, http.HandlerFunc(api.LiveLog)},
		{"POST /api/mcp/call", changeGuard, call},
		{"POST /api/mcp/services/{name}/restart", changeGuard, http.HandlerFunc(api.Restart)},
		{"GET /api/mcp/scan", readGuard, http.HandlerFunc(api.Scan)},
		{"GET /api/mcp/review", readGuard, http.HandlerFunc(api.Review)},

		{"GET /api/skills", readGuard, http.HandlerFunc(api.Skills)},
		{"GET /api/skills/{name}", readGuard, http.HandlerFunc(api.Skill)},
		{"GET /api/skills/{name}/snapshots", readGuard, http.HandlerFunc(api.Snapshots)},
		{"POST /api/skills/{name}/restore", changeGuard, http.HandlerFunc(api.Restore)},
		{"PUT /api/skills/{name}/meta", changeGuard, http.HandlerFunc(api.Meta)},
	}
}
