package tomlfile

import (
	"errors"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

func TestDeepNestingIsAClearError(t *testing.T) {
	const n = 10_000 // enough for minutes of parsing without the limit
	for name, doc := range map[string]string{
		"arrays":                "a = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
		"inline tables":         "a = " + strings.Repeat("{b = ", n) + "1" + strings.Repeat("}", n) + "\n",
		"dotted key":            "x = 1\n" + strings.Repeat("a.", n) + "b = 1\n",
		"dotted header":         "[" + strings.Repeat("a.", n) + "b]\n",
		"dotted inline key":     "a = { " + strings.Repeat("b.", n) + "c = 1 }\n",
		"header and key":        "[" + strings.Repeat("a.", 300) + "a]\n" + strings.Repeat("b.", 300) + "b = 1\n",
		"one past, in an array": "a = " + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("/home/dev/.codex/config.toml", []byte(doc))
			var pe *provider.ParseError
			if !errors.As(err, &pe) || pe.File != "/home/dev/.codex/config.toml" || pe.Line == 0 {
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
		// a = [[…]]: the key is one level, so 511 arrays fit.
		"arrays at the limit": "a = " + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + "\n",
		"header at the limit": "[" + strings.Repeat("a.", MaxDepth-1) + "b]\n",
		// Brackets, braces and dots in strings and comments are text.
		"strings": "a = \"" + strings.Repeat("[{.", 2000) + "\"\nb = '" + strings.Repeat("[.{", 2000) + "'\n" +
			"c = \"\"\"\n" + strings.Repeat("[[{{..\n", 1000) + "\"\"\"\nd = '''" + strings.Repeat("{.[", 1000) + "'''\n",
		"comments":       "# " + strings.Repeat("[{.", 2000) + "\na = 1 # " + strings.Repeat("{[.", 2000) + "\n",
		"quoted keys":    `"` + strings.Repeat("a.", 2000) + `" = 1` + "\n[\"" + strings.Repeat("b.", 2000) + "\"]\nc = 1\n",
		"numbers, dates": "a = 1.5\nb = 1979-05-27T07:32:00.999Z\nc = [1.0, 2.5, { d = 3.25 }]\n",
		"many tables":    strings.Repeat("[mcp_servers.x.env]\nA = \"1\"\n", 1) + strings.Repeat("[[t]]\na.b.c = 1\n", 2000),
	} {
		if _, err := Parse("config.toml", []byte(doc)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
