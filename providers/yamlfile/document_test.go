package yamlfile

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

func TestEntries(t *testing.T) {
	d, err := Parse("config.yaml", []byte(goose))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := d.Entries([]string{"extensions"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	if !reflect.DeepEqual(names, []string{"developer", "github", "linear"}) || entries[1].Line != 14 {
		t.Fatalf("got %v (github on line %d)", names, entries[1].Line)
	}
	gh := entries[1].Value.(map[string]any)
	if gh["cmd"] != "npx" || !reflect.DeepEqual(gh["env_keys"], []any{"GITHUB_TOKEN"}) {
		t.Fatalf("github decoded as %v", gh)
	}
	for _, src := range []string{"", "# nothing\n", "a: 1\n", "extensions:\n", "extensions: {}\n"} {
		d, _ := Parse("config.yaml", []byte(src))
		if entries, err := d.Entries([]string{"extensions"}); err != nil || len(entries) != 0 {
			t.Errorf("%q: %v, %v", src, entries, err)
		}
	}
}

// TestParseErrors: a file the tool cannot read is a *provider.ParseError
// naming the file and, where the parser gives one, the line.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		line int
		want string
	}{
		// The parser names the line where the block with the problem starts.
		{"extensions:\n  a:\n    enabled: true\n   b: [\n", 2, "did not find expected key in the block that starts here"},
		{"a:\n  b: 1\n c: 2\n", 3, "did not find expected key in the block that starts here"},
		{"a: b: c\n", 1, "mapping values are not allowed in this context"},
		{"x: \"unterminated\n", 2, "found unexpected end of stream"},
		{"a: 1\na: 2\n", 2, `mapping key "a" already defined at line 1`},
		{"- a\n- b\n", 1, "the top level is a list, not a mapping"},
		{"a: 1\n---\nb: 2\n", 2, "a second YAML document"},
		{"a: *nowhere\n", 0, "unknown anchor"},
	} {
		_, err := Parse("/home/dev/.config/goose/config.yaml", []byte(tc.src))
		var pe *provider.ParseError
		if !errors.As(err, &pe) || pe.File != "/home/dev/.config/goose/config.yaml" || pe.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v (line %d), want line %d, %q", tc.src, err, lineOf(pe), tc.line, tc.want)
		}
	}
	d, _ := Parse("config.yaml", []byte("extensions: 3\n"))
	var pe *provider.ParseError
	if _, err := d.Entries([]string{"extensions"}); !errors.As(err, &pe) || pe.Line != 1 || !strings.Contains(err.Error(), "a number, not a mapping") {
		t.Errorf("got %v", err)
	}
}

func lineOf(pe *provider.ParseError) int {
	if pe == nil {
		return -1
	}
	return pe.Line
}
