package jsonfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// claudeReads is what the claude provider reads of ~/.claude.json.
var claudeReads = [][]string{
	{"mcpServers"},
	{"projects", "*", "mcpServers"},
	{"projects", "*", "disabledMcpServers"},
	{"projects", "*", "disabledMcpjsonServers"},
}

// onlyAgrees checks that a document parsed with ParseOnly gives the members
// and the edits at every key path of claudeReads that Parse gives, byte for
// byte; it reports whether src parsed.
func onlyAgrees(t *testing.T, src []byte, changes []Change) bool {
	t.Helper()
	whole, werr := Parse("f", src)
	only, oerr := ParseOnly("f", src, claudeReads...)
	if werr != nil && oerr == nil && strings.Contains(werr.Error(), "nested deeper than") {
		// Nested too deep where chronicle does not read: read, and refused
		// for an edit with the same error.
		if _, err := only.Edit(changes); err == nil || err.Error() != werr.Error() {
			t.Fatalf("Parse: %v; ParseOnly's edit: %v\n%q", werr, err, src)
		}
		return false
	}
	if (werr == nil) != (oerr == nil) {
		t.Fatalf("Parse: %v; ParseOnly: %v\n%q", werr, oerr, src)
	}
	if werr != nil {
		if werr.Error() != oerr.Error() {
			t.Fatalf("Parse: %v; ParseOnly: %v\n%q", werr, oerr, src)
		}
		return false
	}
	// The streaming read means what the tree of the same key paths means:
	// every value at a key path, and every other member on the way
	// (objects and arrays as their bytes).
	if tree, err := parse("f", src, claudeReads); err != nil || !reflect.DeepEqual(only.tree, tree.tree) {
		t.Fatalf("ParseOnly's meaning %#v\ndiffers from its tree's %#v (%v)\n%q", only.tree, tree, err, src)
	}
	for _, kp := range [][]string{{"mcpServers"}, {"projects", "p", "mcpServers"}, {"projects", "/home/dev/work/api-server", "mcpServers"}} {
		wm, werr := whole.Members(kp)
		om, oerr := only.Members(kp)
		if (werr == nil) != (oerr == nil) || !reflect.DeepEqual(wm, om) {
			t.Fatalf("members at %v: Parse %v, %v; ParseOnly %v, %v\n%q", kp, wm, werr, om, oerr, src)
		}
	}
	wout, werr := whole.Edit(changes)
	oout, oerr := only.Edit(changes)
	if (werr == nil) != (oerr == nil) || !bytes.Equal(wout, oout) {
		t.Fatalf("edit: Parse gave %v\n%s\nParseOnly gave %v\n%s", werr, wout, oerr, oout)
	}
	return true
}

func TestParseOnlyEditsAsParseDoes(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(fixtures, "claude-code/home/.claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	api := []string{"projects", "/home/dev/work/api-server", "mcpServers"}
	notes := []string{"projects", "/home/dev/work/My Notes (personal)", "mcpServers"}
	for name, changes := range map[string][]Change{
		"add at the user level": {{KeyPath: []string{"mcpServers"}, Name: "added", Value: []byte(newEntry)}},
		"replace and remove in a project": {
			{KeyPath: api, Name: "postgres"},
			{KeyPath: api, Name: "sentry", Value: []byte(`{"type":"http","url":"https://x"}`)},
		},
		"add to an empty map":      {{KeyPath: notes, Name: "n", Value: []byte(`{"command":"n"}`)}},
		"create a project":         {{KeyPath: []string{"projects", "/new", "mcpServers"}, Name: "a", Value: []byte(`{"command":"a"}`)}},
		"merge inside an entry":    {{KeyPath: []string{"mcpServers"}, Name: "chronova", Value: []byte(`{"type":"stdio","command":"npx","args":["-y","@chronova/mcp-server@2"]}`)}},
		"empty a map, which goes":  {{KeyPath: api, Name: "postgres"}, {KeyPath: api, Name: "sentry"}},
		"remove what is not there": {{KeyPath: notes, Name: "absent"}},
		"with comments (JSONC)":    {{KeyPath: []string{"mcpServers"}, Name: "x", Value: []byte(`{"command":"x"}`)}},
	} {
		t.Run(name, func(t *testing.T) {
			text := src
			if name == "with comments (JSONC)" {
				text = bytes.Replace(src, []byte(`"projects": {`), []byte("// history below\n  \"projects\": { /* many */"), 1)
				text = bytes.Replace(text, []byte(`"pastedContents": {} }`), []byte(`"pastedContents": {}, }`), 1)
			}
			if !onlyAgrees(t, text, changes) {
				t.Fatal("the fixture does not parse")
			}
		})
	}
}

// TestParseOnlyLeavesTheRestUnparsed: what no key path reaches is the
// file's bytes, and an edit copies them.
func TestParseOnlyLeavesTheRestUnparsed(t *testing.T) {
	src := []byte("{\n  \"projects\": {\n    \"/p\": {\n      \"history\": [ {\"display\": \"a\"},\n        {\"display\": \"b\"} ],\n      \"mcpServers\": {}\n    }\n  },\n  \"tips\": {\"x\": 1}\n}\n")
	d, err := ParseOnly("f", src, claudeReads...)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := d.Lookup("projects", "/p", "history")
	if want := "[ {\"display\": \"a\"},\n        {\"display\": \"b\"} ]"; !reflect.DeepEqual(h, Raw(want)) {
		t.Fatalf("history is %#v, want the Raw bytes %q", h, want)
	}
	if _, err := d.Members([]string{"tips"}); err == nil {
		t.Fatal("Members of a key path ParseOnly does not read gave no error")
	}
	if _, err := d.Edit([]Change{{KeyPath: []string{"tips"}, Name: "y", Value: []byte("1")}}); err == nil {
		t.Fatal("an edit of a key path ParseOnly does not read gave no error")
	}
	got, err := d.Edit([]Change{{KeyPath: []string{"projects", "/p", "mcpServers"}, Name: "n", Value: []byte(`{"command":"n"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"projects\": {\n    \"/p\": {\n      \"history\": [ {\"display\": \"a\"},\n        {\"display\": \"b\"} ],\n      \"mcpServers\": {\n        \"n\": {\n          \"command\": \"n\"\n        }\n      }\n    }\n  },\n  \"tips\": {\"x\": 1}\n}\n"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// An error's position is the file's, not the parse's: the history before
// it spans lines the parse does not hold.
func TestParseOnlyPositionsAreTheFiles(t *testing.T) {
	src := []byte("{\"projects\": {\"/p\": {\"history\": [\n  1,\n  2\n], \"mcpServers\": 5}}}")
	d, err := ParseOnly("f", src, claudeReads...)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Members([]string{"projects", "/p", "mcpServers"})
	var pe *provider.ParseError
	if !errors.As(err, &pe) || pe.Line != 4 || pe.Column != 18 {
		t.Fatalf("got %v, want a ParseError at 4:18", err)
	}
}

// FuzzParseOnly: on any document, ParseOnly parses when Parse does, and
// gives the same members and the same edits.
func FuzzParseOnly(f *testing.F) {
	for _, tc := range fixtureFiles {
		b, err := os.ReadFile(filepath.Join(fixtures, tc.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"s": { "m": 1, }}`))
	f.Add([]byte("{\n  // servers\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}, // a\n  },\n  \"other\": [1, 2]\n}\n"))
	f.Add([]byte(`{"projects": {"p": {"history": [], "mcpServers": {"a": {}}}}, "mcpServers": {}}`))
	f.Add([]byte("{\"projects\": {\"p\": {\"history\": [1,\n2], \"mcpServers\": {}}}}"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, c := range []Change{
			{KeyPath: []string{"mcpServers"}, Name: "n", Value: []byte(`{"a":[1,"${X}"]}`)},
			{KeyPath: []string{"projects", "p", "mcpServers"}, Name: "n", Value: []byte(`{"a":1}`)},
			{KeyPath: []string{"projects", "p", "mcpServers"}, Name: "a"},
		} {
			if !onlyAgrees(t, src, []Change{c}) {
				return
			}
		}
	})
}

// The last edit is remembered: asked again, it gives the same bytes, and
// Edited gives the parse that verified them — for those bytes only.
func TestEditRemembersItsLastResult(t *testing.T) {
	src := []byte(`{"projects": {"/p": {"history": [1, 2], "mcpServers": {}}}, "mcpServers": {"a": {"command": "a"}}}`)
	d, err := ParseOnly("f", src, claudeReads...)
	if err != nil {
		t.Fatal(err)
	}
	add := []Change{{KeyPath: []string{"projects", "/p", "mcpServers"}, Name: "n", Value: []byte(`{"command":"n"}`)}}
	out, err := d.Edit(add)
	if err != nil {
		t.Fatal(err)
	}
	again, err := d.Edit(slices.Clone(add))
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("the same edit again gave %q, %v; want %q", again, err, out)
	}
	after := d.Edited(bytes.Clone(out))
	if after == nil {
		t.Fatal("Edited of the edit's own bytes gave nothing")
	}
	if m, err := after.Members([]string{"projects", "/p", "mcpServers"}); err != nil || len(m) != 1 || m[0].Name != "n" {
		t.Fatalf("the remembered parse holds %v, %v; want the added entry", m, err)
	}
	if d.Edited(src) != nil {
		t.Fatal("Edited gave a parse for bytes the edit did not produce")
	}
	remove := []Change{{KeyPath: []string{"mcpServers"}, Name: "a"}}
	other, err := d.Edit(remove)
	if err != nil || bytes.Equal(other, out) || bytes.Contains(other, []byte(`"a"`)) {
		t.Fatalf("another edit gave %q, %v", other, err)
	}
	if d.Edited(out) != nil {
		t.Fatal("Edited still gives the parse of an edit made before the last")
	}
}

// A plain JSON file is read with the streaming decoder, which builds no
// tree until an edit needs one; JSONC is parsed as a tree at once.
func TestParseOnlyStreamsPlainJSON(t *testing.T) {
	src := []byte(`{"projects": {"/p": {"history": [1, 2], "mcpServers": {"a": {"command": "a"}}}}, "mcpServers": {}}`)
	d, err := ParseOnly("f", src, claudeReads...)
	if err != nil {
		t.Fatal(err)
	}
	if d.streamed == nil {
		t.Fatal("plain JSON was not streamed")
	}
	if m, err := d.Members([]string{"projects", "/p", "mcpServers"}); err != nil || len(m) != 1 || m[0].Name != "a" {
		t.Fatalf("members %v, %v", m, err)
	}
	if d.streamed.built() != nil {
		t.Fatal("reading members built the tree")
	}
	if _, err := d.Edit([]Change{{KeyPath: []string{"mcpServers"}, Name: "b", Value: []byte(`{"command":"b"}`)}}); err != nil {
		t.Fatal(err)
	}
	if d.streamed.built() == nil {
		t.Fatal("an edit did not build the tree")
	}
	c, err := ParseOnly("f", []byte(`{"mcpServers": {}, // c
}`), claudeReads...)
	if err != nil || c.streamed != nil {
		t.Fatalf("JSONC: %v, streamed %v", err, c.streamed != nil)
	}
}

func TestNames(t *testing.T) {
	for src, want := range map[string][]string{
		`{"projects": {"/a": {}, "/b": 1, "/a": 2}, "x": [1]}`:       {"/a", "/b"},
		`{"projects": {"/a": {}}, "projects": {"/c": {}}}`:           {"/c"},
		`{"projects": {"/a": {}}, "projects": 5}`:                    nil,
		`{"other": {"projects": {"/a": {}}}}`:                        nil,
		"{\"projects\": {\"/p\": {\"history\": [\"\\u00e9\"]}}}\n\n": {"/p"},
	} {
		got, err := Names(bytes.NewReader([]byte(src)), "projects")
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Names of %s: %q, %v; want %q", src, got, err, want)
		}
	}
	for _, bad := range []string{`[1]`, `{"projects": {"/a": }}`, `{"a": 1} {}`, `{"a": 1, // c
}`} {
		if got, err := Names(bytes.NewReader([]byte(bad)), "projects"); err == nil {
			t.Errorf("Names of %s: %q, no error", bad, got)
		}
	}
}

// Odd documents the streaming read must mean as the tree does: names held
// twice on the way and at a key path, values that are not objects, nulls.
func TestParseOnlyAgreesOnOddDocuments(t *testing.T) {
	add := []Change{{KeyPath: []string{"projects", "p", "mcpServers"}, Name: "n", Value: []byte(`{"a":1}`)}}
	for _, src := range []string{
		`{"projects": {"p": {"mcpServers": {"a": {}}}}, "projects": {"q": {}}}`,
		`{"projects": {"p": {"mcpServers": {"a": {}}}, "p": {"history": [1]}}}`,
		`{"projects": {"p": {"history": [1]}, "p": {"mcpServers": {"b": {"x": 1}, "b": {"y": 2}}}}}`,
		`{"projects": {"p": {"mcpServers": {"a": {}}, "mcpServers": {"c": {}}}}}`,
		`{"projects": {"p": {"mcpServers": null}}}`,
		`{"projects": {"p": {"mcpServers": [1, 2]}}}`,
		`{"projects": {"p": 5}}`,
		`{"projects": [1], "mcpServers": {"a": {"command": "x"}}}`,
		`{"mcpServers": {"a": {"command": "x", "args": ["\u00e9", 1.50, -0, 1e400, true, null]}}, "tips": "x"}`,
		`{"projects": {"p": {"disabledMcpServers": ["a", 1, null], "mcpServers": {}}}}`,
	} {
		onlyAgrees(t, []byte(src), add)
	}
}
