package search

import "encoding/json"

// A Doc is one tool as the hub exposes it, the unit the index ranks.
type Doc struct {
	// Name is the exposed name, <service>__<tool>.
	Name    string
	Service string
	// Tool is the upstream's own name for the tool.
	Tool string
	// Title is the tool's display name (its title, else its annotations'
	// title), when it has one.
	Title       string
	Description string
	// InputSchema is the tool's input schema as listed (RawInputSchema).
	InputSchema json.RawMessage
}
