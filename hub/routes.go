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
	call := http.HandlerFunc(h.apiMCPCall)
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

		{"GET /health", healthGuard, http.HandlerFunc(h.health)},

		{"GET /{$}", consoleGuard, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serveConsoleFile(w, "index.html") })},
		{"GET /console/{file}", consoleGuard, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serveConsoleFile(w, r.PathValue("file")) })},

		// The first paths of the management API, kept as they were: the
		// same answers as their /api/mcp/… twins.
		{"GET /api/status", readGuard, http.HandlerFunc(h.apiStatus)},
		{"GET /api/services", readGuard, http.HandlerFunc(h.apiServices)},
		{"GET /api/tools", readGuard, http.HandlerFunc(h.apiTools)},
		{"GET /api/log", readGuard, http.HandlerFunc(h.apiLog)},
		{"POST /api/call", changeGuard, call},

		{"GET /api/mcp/status", readGuard, http.HandlerFunc(h.apiStatus)},
		{"GET /api/mcp/services", readGuard, http.HandlerFunc(h.apiServices)},
		{"GET /api/mcp/tools", readGuard, http.HandlerFunc(h.apiTools)},
		{"GET /api/mcp/log", readGuard, http.HandlerFunc(h.apiLiveLog)},
		{"POST /api/mcp/call", changeGuard, call},
		{"POST /api/mcp/services/{name}/restart", changeGuard, http.HandlerFunc(h.apiRestart)},
		{"GET /api/mcp/scan", readGuard, http.HandlerFunc(h.apiScan)},
		{"GET /api/mcp/review", readGuard, http.HandlerFunc(h.apiReview)},

		{"GET /api/skills", readGuard, http.HandlerFunc(h.apiSkills)},
		{"GET /api/skills/{name}", readGuard, h.withSkill(h.apiSkill)},
		{"GET /api/skills/{name}/snapshots", readGuard, h.withSkill(h.apiSnapshots)},
		{"POST /api/skills/{name}/restore", changeGuard, h.withSkill(h.apiRestore)},
		{"PUT /api/skills/{name}/meta", changeGuard, h.withSkill(h.apiMeta)},
	}
}
