package tomlfile

import (
	"math"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/providers/internal/decoded"
)

func TestRenderDecodesAsGiven(t *testing.T) {
	when := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	table := Table{
		{"plain", "text"},
		{"tricky", "quote \" backslash \\ newline \n tab \t ctl \x01 ${X}"},
		{"needs quotes", true},
		{"", int64(-7)},
		{"float", 20.0},
		{"nan", math.NaN()},
		{"when", when},
		{"list", []string{"a", "b"}},
		{"empty list", []string{}},
		{"mixed", []any{int64(1), "x", []any{true}}},
		{"inline", map[string]any{"b": int64(2), "a.b": map[string]string{"k": "v"}}},
		{"tables", []map[string]any{{"x": int64(1)}, {"y": "z"}}},
		{"sub", Table{{"k", "v"}, {"deeper", Table{{"n", int64(3)}}}}},
	}
	text, err := table.Render([]string{"mcp_servers", "weird.name"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := intended(text, []string{"mcp_servers", "weird.name"})
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	want := map[string]any{
		"plain":        "text",
		"tricky":       "quote \" backslash \\ newline \n tab \t ctl \x01 ${X}",
		"needs quotes": true,
		"":             int64(-7),
		"float":        20.0,
		"nan":          math.NaN(),
		"when":         when,
		"list":         []any{"a", "b"},
		"empty list":   []any{},
		"mixed":        []any{int64(1), "x", []any{true}},
		"inline":       map[string]any{"b": int64(2), "a.b": map[string]any{"k": "v"}},
		"tables":       []any{map[string]any{"x": int64(1)}, map[string]any{"y": "z"}},
		"sub":          map[string]any{"k": "v", "deeper": map[string]any{"n": int64(3)}},
	}
	if !decoded.Equal(got, want) {
		t.Errorf("decoded\n%#v\nwant\n%#v\ntext:\n%s", got, want, text)
	}
}

func TestRenderRefusesWhatTOMLCannotHold(t *testing.T) {
	for _, v := range []any{nil, map[int]string{1: "x"}, []any{nil}, struct{}{}} {
		if text, err := (Table{{"k", v}}).Render([]string{"t"}); err == nil {
			t.Errorf("Render(%#v) = %s, want an error", v, text)
		}
	}
}

func TestQuoteKey(t *testing.T) {
	for in, want := range map[string]string{
		"github":     "github",
		"api-db_2":   "api-db_2",
		"weird.name": `"weird.name"`,
		"":           `""`,
		"a b":        `"a b"`,
		`q"`:         `"q\""`,
		"é":          `"é"`,
	} {
		if got := quoteKey(in); got != want {
			t.Errorf("quoteKey(%q) = %s, want %s", in, got, want)
		}
	}
}
