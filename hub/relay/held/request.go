package held

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// Request returns a session-era upstream's request as the 2026-07-28
// revision embeds it in inputRequests: {method, params}, the params without
// what that revision dropped from an embedded request — the request's own
// _meta (its progress token, a related task), the task that augments it,
// and a URL elicitation's elicitationId (the revision has no completion
// notification it would key).
func Request(method string, params json.RawMessage) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
	}
	if p == nil {
		p = map[string]json.RawMessage{}
	}
	delete(p, "_meta")
	delete(p, "task")
	if mcp.MCPMethod(method) == mcp.MethodElicitationCreate {
		delete(p, "elicitationId")
	}
	out := map[string]any{"method": method}
	if mcp.MCPMethod(method) != mcp.MethodListRoots {
		out["params"] = p
	}
	return json.Marshal(out)
}

// Declared reports whether a client that declared caps can answer an
// upstream's request of method with params: elicitation in the mode it
// asks for (form when it names none), sampling (with tools only when the
// client declared them), roots.
func Declared(caps *mcp.ClientCapabilities, method string, params json.RawMessage) bool {
	if caps == nil {
		return false
	}
	var p struct {
		Mode  string          `json:"mode"`
		Tools json.RawMessage `json:"tools"`
	}
	_ = json.Unmarshal(params, &p) // a request without params asks for the plain capability
	switch mcp.MCPMethod(method) {
	case mcp.MethodElicitationCreate:
		e := caps.Elicitation
		switch {
		case e == nil:
			return false
		case p.Mode == string(mcp.ElicitationModeURL):
			return e.URL != nil
		default: // form: an empty capability means form (2025-06-18)
			return e.Form != nil || e.URL == nil
		}
	case mcp.MethodSamplingCreateMessage:
		return caps.Sampling != nil && (len(p.Tools) == 0 || caps.Sampling.Tools != nil)
	case mcp.MethodListRoots:
		return caps.Roots != nil
	}
	return false
}
