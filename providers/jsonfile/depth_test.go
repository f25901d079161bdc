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
