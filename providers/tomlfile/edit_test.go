package tomlfile

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/decoded"
)

func parse(t testing.TB, data []byte) *Document {
	t.Helper()
	d, err := Parse("/h/config.toml", data)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestEditCreatesTheFile(t *testing.T) {
	missing := parse(t, nil)
	if out, err := missing.Edit([]Change{{KeyPath: servers, Name: "x"}}); err != nil || out != nil {
		t.Fatalf("removing from a missing file gave %q, %v; want no bytes", out, err)
	}
	created, err := missing.Edit([]Change{{KeyPath: servers, Name: "x", Table: Table{{"command", "x"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "[mcp_servers.x]\ncommand = \"x\"\n"; string(created) != want {
		t.Errorf("file = %q, want %q", created, want)
	}
	emptied, err := parse(t, created).Edit([]Change{{KeyPath: servers, Name: "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if emptied == nil || len(emptied) != 0 {
		t.Errorf("after remove: %q, want an empty file (not no file)", emptied)
	}
}

func TestParseRefusesAnUnparsableFile(t *testing.T) {
	_, err := Parse("/h/config.toml", []byte("model = \"o3\"\n[mcp_servers.x]\ncommand = = \"x\"\n"))
	var pe *provider.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.File != "/h/config.toml" {
		t.Errorf("err = %v, want a *provider.ParseError on line 3", err)
	}
}

func TestTableIsTheEntryAsStored(t *testing.T) {
	d := parse(t, fixture(t, "home"))
	if got := d.Table(servers, "sentry")["startup_timeout_sec"]; got != 10.5 {
		t.Errorf("sentry's startup_timeout_sec = %v, want 10.5 as the file has it", got)
	}
	if d.Table(servers, "absent") != nil {
		t.Error("an absent entry has a table")
	}
}

// TestBatchIsWhatOneChangeAtATimeGives: many changes in one Edit — new
// entries, replacements, removals, and forms that make the entry move —
// give the bytes that making them one at a time gives. Only where an entry
// is removed from the end of the servers does the place of new entries
// differ: one Edit adds them after the servers that stay, where one change
// at a time may have added them before removing the last one; the meaning
// is the same.
func TestBatchIsWhatOneChangeAtATimeGives(t *testing.T) {
	var many []Change
	for i := range 50 {
		many = append(many, Change{KeyPath: servers, Name: fmt.Sprintf("new-%02d", i), Table: sample})
	}
	tests := []struct {
		name        string
		doc         []byte
		changes     []Change
		meaningOnly bool
	}{
		{"many new", fixture(t, "home"), many, false},
		{"new into an empty file", nil, many[:3], false},
		{"new at an end without newline", []byte("model = \"o3\""), many[:3], false},
		{"replace and remove", fixture(t, "home"), []Change{
			{KeyPath: servers, Name: "postgres", Table: Table{{"command", "pg"}}},
			{KeyPath: servers, Name: "github"},
			{KeyPath: servers, Name: "chronova", Table: sample},
		}, false},
		{"set, replace and remove the last", fixture(t, "home"), []Change{
			{KeyPath: servers, Name: "added", Table: sample},
			{KeyPath: servers, Name: "postgres", Table: Table{{"command", "pg"}}},
			{KeyPath: servers, Name: "github"},
			{KeyPath: servers, Name: "weird.name", Table: sample},
			{KeyPath: servers, Name: "sentry"},
		}, true},
		{"dotted entry moves", []byte("[mcp_servers]\nx.command = \"x\"\ny.command = \"y\"\n"), []Change{
			{KeyPath: servers, Name: "x", Table: sample},
			{KeyPath: servers, Name: "z", Table: sample},
			{KeyPath: servers, Name: "y"},
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			batch, err := parse(t, tc.doc).Edit(tc.changes)
			if err != nil {
				t.Fatal(err)
			}
			one := tc.doc
			for _, c := range tc.changes {
				if one, err = parse(t, one).Edit([]Change{c}); err != nil {
					t.Fatal(err)
				}
			}
			if tc.meaningOnly && !decoded.Equal(parse(t, batch).Tree, parse(t, one).Tree) || !tc.meaningOnly && !bytes.Equal(batch, one) {
				t.Errorf("one Edit:\n%s\none change at a time:\n%s", batch, one)
			}
		})
	}
}

func TestSetAndRemoveInOneEditGiveTheFileBack(t *testing.T) {
	doc := fixture(t, "home")
	d := parse(t, doc)
	out, err := d.Edit([]Change{{KeyPath: servers, Name: "added", Table: sample}, {KeyPath: servers, Name: "github"}})
	if err != nil {
		t.Fatal(err)
	}
	var github Table
	for _, k := range slices.Sorted(maps.Keys(d.Table(servers, "github"))) {
		github = append(github, Field{k, d.Table(servers, "github")[k]})
	}
	back, err := parse(t, out).Edit([]Change{
		{KeyPath: servers, Name: "added"},
		{KeyPath: servers, Name: "github", Table: github},
	})
	if err != nil {
		t.Fatal(err)
	}
	after := parse(t, back)
	if !decoded.Equal(after.Tree, d.Tree) {
		t.Errorf("removing what was added and putting back what was removed gave\n%s", back)
	}
}

func TestInlineServerMapIsRefusedWithItsReason(t *testing.T) {
	for doc, want := range map[string]string{
		"mcp_servers = { x = { command = \"x\" } }\n": "mcp_servers is written inline (mcp_servers = …), which chronicle does not rewrite",
		"[[mcp_servers]]\ncommand = \"x\"\n":          "mcp_servers is written as an array of tables ([[mcp_servers]])",
	} {
		for _, c := range []Change{{KeyPath: servers, Name: "x", Table: sample}, {KeyPath: servers, Name: "x"}} {
			_, err := parse(t, []byte(doc)).Edit([]Change{c})
			if err == nil || !strings.Contains(err.Error(), "/h/config.toml: [mcp_servers.x]: "+want) {
				t.Errorf("Edit of %q: err = %v, want the file, the entry and %q", doc, err, want)
			}
		}
	}
}

func TestTwoChangesOfOneEntryAreRefused(t *testing.T) {
	for name, changes := range map[string][]Change{
		"twice":  {{KeyPath: servers, Name: "x"}, {KeyPath: servers, Name: "x", Table: sample}},
		"inside": {{KeyPath: servers, Name: "x", Table: sample}, {KeyPath: []string{"mcp_servers", "x"}, Name: "env"}},
	} {
		if _, err := parse(t, nil).Edit(changes); err == nil {
			t.Errorf("%s: the edit succeeded", name)
		}
	}
}

// TestVerifyRefusesAWrongResult gives the verification results that are not
// the intended change: each is an error.
func TestVerifyRefusesAWrongResult(t *testing.T) {
	home := fixture(t, "home")
	d := parse(t, home)
	changes := []Change{{KeyPath: servers, Name: "new", Table: Table{{"command", "x"}}}, {KeyPath: servers, Name: "github"}}
	right, err := d.Edit(changes)
	if err != nil {
		t.Fatal(err)
	}
	intents := []intent{
		{keyPath: servers, name: "new", key: []string{"mcp_servers", "new"}, want: map[string]any{"command": "x"}},
		{keyPath: servers, name: "github", key: []string{"mcp_servers", "github"}},
	}
	if err := verify(d, right, intents); err != nil {
		t.Fatalf("the right result was refused: %v", err)
	}
	for name, wrong := range map[string][]byte{
		"garbage":             []byte("[[["),
		"other table changed": bytes.Replace(right, []byte("network_access = false"), []byte("network_access = true"), 1),
		"entry dropped":       bytes.Replace(right, []byte("[mcp_servers.new]"), []byte("[not_servers.new]"), 1),
		"entry differs":       bytes.Replace(right, []byte("command = \"x\""), []byte("command = \"y\""), 1),
		"removal undone":      home,
		"other entry lost":    bytes.Replace(right, []byte("[mcp_servers.sentry]"), []byte("[gone.sentry]"), 1),
	} {
		if err := verify(d, wrong, intents); err == nil {
			t.Errorf("%s: verification accepted\n%s", name, wrong)
		}
	}
	if err := verify(parse(t, nil), []byte("x = 1\n"), intents[:1]); err == nil {
		t.Error("a new file without the entry was accepted")
	}
}
