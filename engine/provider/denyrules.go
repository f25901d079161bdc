package provider

// A DenyList is where a tool keeps permission rules that deny an MCP
// server's tools one by one, in a file beside its MCP config that it
// shares with the user's own rules (Devin CLI's permissions.deny in the
// config*.json of the entry's scope, docs/decisions/0151).
type DenyList struct {
	// File is the file holding the list.
	File string
	// KeyPath is the list's key path in it: ["permissions", "deny"].
	KeyPath []string
	// Prefix and Separator spell the rule denying tool T of server S:
	// Prefix + S + Separator + T ("mcp__github__create_issue").
	Prefix, Separator string
}

// Rule is the rule denying tool of server.
func (d DenyList) Rule(server, tool string) string { return d.Prefix + server + d.Separator + tool }

// A DenyRuler is a provider whose tool denies tools through a DenyList: a
// policy's deny list is written there as one rule per tool.
type DenyRuler interface {
	// DenyList returns the list of rules for the servers of loc, one of
	// the provider's writable locations; false when it keeps none.
	DenyList(loc Location) (DenyList, bool)
	// DenyRules returns the rules of list d held by src, the content of
	// d.File (nil: the file does not exist): nil when there is no list;
	// an error naming the file when src does not parse, or when a value on
	// the way or the list itself has another type.
	DenyRules(d DenyList, src []byte) ([]string, error)
	// EditDenyRule returns src with rule appended to list d, or removed
	// from it, keeping every other byte (the user's rules, comments); the
	// result is verified by parsing it again.
	EditDenyRule(d DenyList, src []byte, rule string, remove bool) ([]byte, error)
}
