package tomlfile

import (
	"errors"
	"slices"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

func TestEntriesInFileOrder(t *testing.T) {
	doc, err := Parse("config.toml", fixture(t, "home"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := doc.Entries(servers)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var lines []int
	for _, e := range entries {
		names = append(names, e.Name)
		lines = append(lines, e.Line)
	}
	if want := []string{"chronova", "postgres", "github", "sentry"}; !slices.Equal(names, want) {
		t.Errorf("names = %v, want %v", names, want)
	}
	if want := []int{18, 26, 35, 43}; !slices.Equal(lines, want) {
		t.Errorf("lines = %v, want %v", lines, want)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, doc string
		line, col int // col 0: any column
	}{
		{"syntax", "a = 1\n[mcp_servers.x]\ncommand = \n", 3, 11},
		{"duplicate", "[mcp_servers.x]\ncommand = \"a\"\ncommand = \"b\"\n", 3, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("/x/config.toml", []byte(tt.doc))
			var pe *provider.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *provider.ParseError", err)
			}
			if pe.File != "/x/config.toml" || pe.Line != tt.line || pe.Column < 1 || tt.col != 0 && pe.Column != tt.col {
				t.Errorf("ParseError = %s:%d:%d, want line %d column %d", pe.File, pe.Line, pe.Column, tt.line, tt.col)
			}
		})
	}
}

func TestEntriesRefusesAServerThatIsNoTable(t *testing.T) {
	for _, doc := range []string{"mcp_servers = 3\n", "[mcp_servers]\nx = \"npx\"\n"} {
		d, err := Parse("c.toml", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		var pe *provider.ParseError
		if _, err := d.Entries(servers); !errors.As(err, &pe) {
			t.Errorf("Entries(%q) err = %v, want *provider.ParseError", doc, err)
		}
	}
}

func TestMissingFileIsAnEmptyDocument(t *testing.T) {
	d, err := Parse("config.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if entries, err := d.Entries(servers); err != nil || len(entries) != 0 || d.Data != nil {
		t.Errorf("entries %v, err %v, data %q; want an empty document", entries, err, d.Data)
	}
}
