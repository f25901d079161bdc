package jsonfile

import (
	"errors"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

func TestDeepNestingIsAClearError(t *testing.T) {
	for name, doc := range map[string]string{
		"arrays a million deep (JSONC)": "// settings\n{\"a\": " + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + "}",
		"objects one past the limit":    strings.Repeat(`{"a": `, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1),
		// The string ends at its second quote: an escaped backslash escapes no quote.
		"after a string ending in a backslash": `{"a": "x\\\\", "b": ` + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + "}",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("/home/dev/.cursor/mcp.json", []byte(doc))
			var pe *provider.ParseError
			if !errors.As(err, &pe) || pe.File != "/home/dev/.cursor/mcp.json" || pe.Line == 0 {
				t.Fatalf("err = %v, want a *provider.ParseError with a position", err)
			}
			if !strings.Contains(err.Error(), "nested deeper than 512 levels") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestNestingWithinTheLimitParses(t *testing.T) {
	for name, doc := range map[string]string{
		"objects at the limit": strings.Repeat(`{"a": `, MaxDepth) + "1" + strings.Repeat("}", MaxDepth),
		// Brackets in strings and comments are text, not nesting.
		"brackets in strings":  `{"a": "` + strings.Repeat(`[{\"`, 1000) + `"}`,
		"brackets in comments": "{ // " + strings.Repeat("[{", 1000) + "\n /* " + strings.Repeat("{[", 1000) + " */ \"a\": 1 }",
	} {
		if _, err := Parse("f.json", []byte(doc)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// ParseOnly's streaming read does not recurse: a file nested too deep where
// chronicle does not read (a project's history) is read, and refused for an
// edit, whose tree would recurse; too deep where it reads is an error at
// once, with its position.
func TestParseOnlyChecksTheDepthOfWhatItReads(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	history := []byte(`{"projects": {"/p": {"history": ` + deep + `, "mcpServers": {"a": {"command": "a"}}}}}`)
	d, err := ParseOnly("f", history, claudeReads...)
	if err != nil {
		t.Fatalf("too deep in the history: %v", err)
	}
	if m, err := d.Members([]string{"projects", "/p", "mcpServers"}); err != nil || len(m) != 1 {
		t.Fatalf("members %v, %v", m, err)
	}
	if _, err := d.Edit([]Change{{KeyPath: []string{"mcpServers"}, Name: "b", Value: []byte(`{"command":"b"}`)}}); err == nil || !strings.Contains(err.Error(), "nested deeper than 512 levels") {
		t.Fatalf("an edit of a file too deep: %v", err)
	}
	servers := []byte(`{"mcpServers": {"a": {"args": ` + deep + `}}}`)
	_, err = ParseOnly("f", servers, claudeReads...)
	var pe *provider.ParseError
	if !errors.As(err, &pe) || pe.Line == 0 || !strings.Contains(err.Error(), "nested deeper than 512 levels") {
		t.Fatalf("too deep in the servers: %v, want a ParseError with a position", err)
	}
}
