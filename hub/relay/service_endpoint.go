package relay

import (
	"strings"

	"github.com/chronicle-dev/chronicle/hub/catalog"
	"github.com/mark3labs/mcp-go/mcp"
)

// A service endpoint serves one service as if the client talked to the
// server itself: /mcp/service/NAME over HTTP, serve --stdio --service NAME
// over stdio. Its tools and prompts keep the names the server gives (no
// "NAME__" prefix, no "[NAME] " before a description), every tool the
// policy allows is listed (no search mode), and everything else — policy,
// masking, scope, timeouts, the inspector's records — is the hub's as on
// /mcp, because inside the hub a request to it is an /mcp request under
// the exposed names (docs/decisions/0160):
//
//   - on the way in, the name a tools/call, prompts/get or a prompt's
//     completion/complete names is turned into the exposed name (and the
//     2026-07-28 Mcp-Name header with it), before mcp-go reads the message;
//   - on the way out, the tools and prompts a list answers are given their
//     own names back (the After hooks of the lists, which see the result
//     before it is encoded).

// ownTool returns a tool as its server lists it, from the hub's entry.
func ownTool(service string, t mcp.Tool, name string) mcp.Tool {
	t.Name = name
	t.Description = strings.TrimPrefix(t.Description, "["+service+"] ")
	return t
}

// ownPrompt returns a prompt as its server lists it, from the hub's entry.
func ownPrompt(service string, p mcp.Prompt, name string) mcp.Prompt {
	p.Name = name
	p.Description = strings.TrimPrefix(p.Description, "["+service+"] ")
	return p
}

// OwnToolNames gives the tools of a list answered on a service endpoint
// their own names back; a name the catalogue does not hold is left as it
// is.
func OwnToolNames(cat *catalog.Catalog, service string, tools []mcp.Tool) {
	for i, t := range tools {
		if e := cat.Tools[t.Name]; e != nil && e.Service == service {
			tools[i] = ownTool(service, t, e.Name)
		}
	}
}

// OwnPromptNames is ownToolNames for prompts.
func OwnPromptNames(cat *catalog.Catalog, service string, prompts []mcp.Prompt) {
	for i, p := range prompts {
		if e := cat.Prompts[p.Name]; e != nil && e.Service == service {
			prompts[i] = ownPrompt(service, p, e.Name)
		}
	}
}
