package jsonfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

func TestEditCreatesAMissingFile(t *testing.T) {
	d, err := Parse("new/mcp.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := d.Edit([]Change{{KeyPath: []string{"servers"}, Name: "n"}}); err != nil || got != nil {
		t.Fatalf("removing from a missing file gave %q, %v; want no bytes: the file stays missing", got, err)
	}
	created, err := d.Edit([]Change{{KeyPath: []string{"servers"}, Name: "n", Value: []byte(`{"command":"x"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"servers\": {\n    \"n\": {\n      \"command\": \"x\"\n    }\n  }\n}\n"; string(created) != want {
		t.Fatalf("got %q, want %q", created, want)
	}
	emptied, err := remove("new/mcp.json", created, []string{"servers"}, "n")
	if err != nil {
		t.Fatal(err)
	}
	if string(emptied) != "{}\n" {
		t.Fatalf("after removal got %q, want \"{}\\n\"", emptied)
	}
}

func TestEditOfAnUnchangedEntryGivesTheBytesBack(t *testing.T) {
	src := []byte(`{"s": {"n": {"a": 1}}}`)
	got, err := set("f", src, []string{"s"}, "n", []byte(`{"a":1}`))
	if err != nil || string(got) != string(src) {
		t.Fatalf("got %q, %v; want the file as it was", got, err)
	}
}

func TestParseRefusesAnUnparsableFile(t *testing.T) {
	_, err := Parse("/x/f.json", []byte("{\n  \"a\": 1,\n  \"b\" 2\n}\n"))
	var pe *provider.ParseError
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Column != 7 || pe.File != "/x/f.json" {
		t.Fatalf("got %#v, want a ParseError at /x/f.json:3:7", err)
	}
	if _, err := Parse("f", []byte(`[1]`)); !errors.As(err, &pe) {
		t.Fatalf("a file holding an array: got %v, want a ParseError", err)
	}
}

// TestBatchAcrossKeyPaths makes changes at the user level and in two
// projects of ~/.claude.json (one the file has, one it lacks) in one Edit:
// the result is what making them one at a time gives.
func TestBatchAcrossKeyPaths(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(fixtures, "claude-code/home/.claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	api := []string{"projects", "/home/dev/work/api-server", "mcpServers"}
	changes := []Change{
		{KeyPath: []string{"mcpServers"}, Name: "added", Value: []byte(newEntry)},
		{KeyPath: api, Name: "added-local", Value: []byte(`{"type":"http","url":"https://x"}`)},
		{KeyPath: []string{"projects", "/home/dev/new", "mcpServers"}, Name: "a", Value: []byte(`{"command":"a"}`)},
		{KeyPath: []string{"projects", "/home/dev/new", "mcpServers"}, Name: "b", Value: []byte(`{"command":"b"}`)},
		{KeyPath: api, Name: "postgres"},
		{KeyPath: []string{"mcpServers"}, Name: "context7", Value: []byte(`{"type":"stdio","command":"npx","args":["-y","other"]}`)},
	}
	batch, err := edit("f", src, changes...)
	if err != nil {
		t.Fatal(err)
	}
	one := src
	for _, c := range changes {
		if one, err = edit("f", one, c); err != nil {
			t.Fatal(err)
		}
	}
	if string(batch) != string(one) {
		t.Fatalf("one Edit:\n%s\none change at a time:\n%s", batch, one)
	}
	d, err := Parse("f", batch)
	if err != nil {
		t.Fatal(err)
	}
	for _, kp := range [][]string{{"mcpServers", "added"}, {"projects", "/home/dev/new", "mcpServers", "b"}, append(api, "added-local")} {
		if _, ok := d.Lookup(kp...); !ok {
			t.Errorf("%v missing after the edit", kp)
		}
	}
	if _, ok := d.Lookup(append(api, "postgres")...); ok {
		t.Error("postgres still there after its removal")
	}
}

// TestSetAndRemoveInOneEdit: one Edit that removes the last member of a map
// and adds another leaves the map, holding the new member, and the same
// Edit the other way round gives the file back.
func TestSetAndRemoveInOneEdit(t *testing.T) {
	src := "{\n  \"s\": {\n    \"old\": {\n      \"a\": 1\n    }\n  }\n}\n"
	swapped, err := edit("f", []byte(src),
		Change{KeyPath: []string{"s"}, Name: "old"},
		Change{KeyPath: []string{"s"}, Name: "new", Value: []byte(`{"b":2}`)})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"s\": {\n    \"new\": {\n      \"b\": 2\n    }\n  }\n}\n"; string(swapped) != want {
		t.Fatalf("got %q, want %q", swapped, want)
	}
	back, err := edit("f", swapped,
		Change{KeyPath: []string{"s"}, Name: "old", Value: []byte(`{"a":1}`)},
		Change{KeyPath: []string{"s"}, Name: "new"})
	if err != nil {
		t.Fatal(err)
	}
	if string(back) != src {
		t.Fatalf("got %q, want %q", back, src)
	}
}

func TestDuplicateKeysAreRefusedWithTheirPlace(t *testing.T) {
	tests := []struct {
		name, src string
		change    Change
		want      string
	}{
		{"entry", `{"s": {"x": 1, "x": 2}}`, Change{KeyPath: []string{"s"}, Name: "x", Value: []byte(`3`)}, `/h/f.json: ["s"] holds "x" more than once`},
		{"entry removed", `{"s": {"x": 1, "x": 2}}`, Change{KeyPath: []string{"s"}, Name: "x"}, `/h/f.json: ["s"] holds "x" more than once`},
		{"key path", `{"s": {}, "s": {"y": 1}}`, Change{KeyPath: []string{"s"}, Name: "x", Value: []byte(`3`)}, `/h/f.json: the top-level object holds "s" more than once`},
		{"field", `{"s": {"x": {"command": "a", "command": "b"}}}`, Change{KeyPath: []string{"s"}, Name: "x", Value: []byte(`{"command":"c"}`)}, `/h/f.json: ["s","x"] holds "command" more than once`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := edit("/h/f.json", []byte(tc.src), tc.change)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "remove the duplicates") {
				t.Fatalf("got %v, want %q and what to do", err, tc.want)
			}
		})
	}
	// A duplicated name nobody edits is read as the tools read it: the last wins.
	got, err := set("f", []byte(`{"s": {"x": 1, "x": 2}}`), []string{"s"}, "y", []byte(`3`))
	if err != nil || string(got) != `{"s": {"x": 1, "x": 2, "y": 3}}` {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestOverlappingChangesAreRefused(t *testing.T) {
	src := []byte(`{"s": {"x": {"a": 1}}}`)
	for name, changes := range map[string][]Change{
		"twice":  {{KeyPath: []string{"s"}, Name: "x"}, {KeyPath: []string{"s"}, Name: "x", Value: []byte(`1`)}},
		"inside": {{KeyPath: []string{"s"}, Name: "x"}, {KeyPath: []string{"s", "x"}, Name: "a", Value: []byte(`2`)}},
	} {
		if _, err := edit("f", src, changes...); err == nil {
			t.Errorf("%s: the edit succeeded", name)
		}
	}
}

// TestVerifyRefusesAWrongResult gives the verification results that are not
// the intended change: each is an error.
func TestVerifyRefusesAWrongResult(t *testing.T) {
	src := []byte("{\n  \"keep\": 1,\n  \"s\": {\"gone\": 1}\n}\n")
	d, err := Parse("f", src)
	if err != nil {
		t.Fatal(err)
	}
	changes := []Change{
		{KeyPath: []string{"s"}, Name: "n", Value: []byte(`{"a":1}`)},
		{KeyPath: []string{"s"}, Name: "gone"},
	}
	right := "{\n  \"keep\": 1,\n  \"s\": {\"n\": {\"a\": 1}}\n}\n"
	if err := verifyChanges(d, []byte(right), changes); err != nil {
		t.Fatalf("the right result was refused: %v", err)
	}
	for name, wrong := range map[string]string{
		"extra change":   strings.Replace(right, `"keep": 1`, `"keep": 2`, 1),
		"key added":      strings.Replace(right, `"keep": 1`, `"keep": 1, "other": true`, 1),
		"broken syntax":  right + "}",
		"entry lost":     "{\n  \"keep\": 1\n}\n",
		"entry differs":  strings.Replace(right, `"a": 1`, `"a": 2`, 1),
		"removal undone": strings.Replace(right, `{"n"`, `{"gone": 1, "n"`, 1),
	} {
		if err := verifyChanges(d, []byte(wrong), changes); err == nil {
			t.Errorf("%s: verification accepted %q", name, wrong)
		}
	}
}

// TestDocumentIsSafeForConcurrentUse reads and edits one Document from
// several goroutines, as a plan reading many locations of one file does:
// every reader sees the document as parsed (run with -race).
func TestDocumentIsSafeForConcurrentUse(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(fixtures, "claude-code/home/.claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse("f", src)
	if err != nil {
		t.Fatal(err)
	}
	api := []string{"projects", "/home/dev/work/api-server", "mcpServers"}
	want, err := d.Edit([]Change{{KeyPath: api, Name: "n", Value: []byte(`{"a":1}`)}})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			members, err := d.Members(api)
			if err == nil && len(members) != 2 {
				err = fmt.Errorf("%d members", len(members))
			}
			if err == nil {
				var got []byte
				if got, err = d.Edit([]Change{{KeyPath: api, Name: "n", Value: []byte(`{"a":1}`)}}); err == nil && string(got) != string(want) {
					err = errors.New("another edit gave other bytes")
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if string(d.Bytes()) != string(src) {
		t.Fatal("editing changed the document")
	}
}
