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

// A ListEditor reads and edits one list of strings in a tool's file,
// keeping every other byte: the permission rules of a DenyList. cmd passes
// the providers' own (providers.Lists) to the plan and to apply, which use
// it for every tool whose Location has a DenyList.
type ListEditor interface {
	// Strings returns the strings of the list at keyPath in src, the
	// content of file (nil: the file does not exist): nil when there is
	// no list; an error naming the file when src does not parse, or when
	// a value on the way or the list itself has another type.
	Strings(file string, src []byte, keyPath []string) ([]string, error)
	// Edit returns src with value appended to the list, or removed from
	// it, keeping every other byte (the user's rules, comments); the
	// result is verified by parsing it again.
	Edit(file string, src []byte, keyPath []string, value string, remove bool) ([]byte, error)
}
