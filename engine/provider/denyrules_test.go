package provider

import "testing"

// A deny rule is spelled Prefix, server, Separator, tool: Devin's
// mcp__github__create_issue.
func TestDenyListRule(t *testing.T) {
	d := DenyList{File: "/h/.config/devin/config.json", KeyPath: []string{"permissions", "deny"}, Prefix: "mcp__", Separator: "__"}
	if got := d.Rule("github", "create_issue"); got != "mcp__github__create_issue" {
		t.Fatalf("rule %q", got)
	}
}
