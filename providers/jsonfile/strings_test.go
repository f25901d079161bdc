package jsonfile

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

var deny = []string{"permissions", "deny"}

// TestAddAndRemoveString adds a rule to the deny list of each file, then
// removes it: every other byte stays, and the removal gives the file back.
func TestAddAndRemoveString(t *testing.T) {
	tests := []struct {
		name, src string
		added     string // after adding "mcp__s__t"
	}{
		{"empty file", "{}\n",
			"{\n  \"permissions\": {\n    \"deny\": [\n      \"mcp__s__t\"\n    ]\n  }\n}\n"},
		{"missing file", "",
			"{\n  \"permissions\": {\n    \"deny\": [\n      \"mcp__s__t\"\n    ]\n  }\n}\n"},
		{"no permissions key", "{\n  \"model\": \"x\"\n}\n",
			"{\n  \"model\": \"x\",\n  \"permissions\": {\n    \"deny\": [\n      \"mcp__s__t\"\n    ]\n  }\n}\n"},
		{"no deny key", "{\n  \"permissions\": {\n    \"allow\": [\"Read\"]\n  }\n}\n",
			"{\n  \"permissions\": {\n    \"allow\": [\"Read\"],\n    \"deny\": [\n      \"mcp__s__t\"\n    ]\n  }\n}\n"},
		{"empty array", "{\n  \"permissions\": {\n    \"deny\": [],\n    \"allow\": []\n  }\n}\n",
			"{\n  \"permissions\": {\n    \"deny\": [\n      \"mcp__s__t\"\n    ],\n    \"allow\": []\n  }\n}\n"},
		{"comments and trailing commas", "{\n  // mine\n  \"permissions\": {\n    \"deny\": [\n      \"Exec(sudo)\", // never\n      /* keep */ \"Read(.env)\",\n    ],\n  },\n}\n",
			"{\n  // mine\n  \"permissions\": {\n    \"deny\": [\n      \"Exec(sudo)\", // never\n      /* keep */ \"Read(.env)\",\n      \"mcp__s__t\",\n    ],\n  },\n}\n"},
		{"comment before the bracket", "{\"permissions\": {\"deny\": [\n  \"a\"\n  // last\n]}}",
			"{\"permissions\": {\"deny\": [\n  \"a\",\n  // last\n  \"mcp__s__t\"\n]}}"},
		{"one line", `{"permissions": {"deny": ["Exec(sudo)", "Read(.env)"]}}`,
			`{"permissions": {"deny": ["Exec(sudo)", "Read(.env)", "mcp__s__t"]}}`},
		{"one line, line comment", "{\"permissions\": {\"deny\": [\"a\" // mine\n]}}",
			"{\"permissions\": {\"deny\": [\"a\", \"mcp__s__t\" // mine\n]}}"},
		{"one line, trailing comma, comment", "{\"permissions\": {\"deny\": [\"a\", /* mine */ ]}}",
			"{\"permissions\": {\"deny\": [\"a\", \"mcp__s__t\", /* mine */ ]}}"},
		{"one line, spaced", `{"permissions": {"deny": [ "a" ], "x": 1}}`,
			`{"permissions": {"deny": [ "a", "mcp__s__t" ], "x": 1}}`},
		{"tabs and crlf", "{\r\n\t\"permissions\": {\r\n\t\t\"deny\": [\r\n\t\t\t\"a\"\r\n\t\t]\r\n\t}\r\n}\r\n",
			"{\r\n\t\"permissions\": {\r\n\t\t\"deny\": [\r\n\t\t\t\"a\",\r\n\t\t\t\"mcp__s__t\"\r\n\t\t]\r\n\t}\r\n}\r\n"},
		{"other elements", `{"permissions": {"deny": [1, {"a": "mcp__s__t"}, null]}}`,
			`{"permissions": {"deny": [1, {"a": "mcp__s__t"}, null, "mcp__s__t"]}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var src []byte
			if tc.src != "" {
				src = []byte(tc.src)
			}
			d, err := Parse("/h/config.json", src)
			if err != nil {
				t.Fatal(err)
			}
			added, err := d.AddString(deny, "mcp__s__t")
			if err != nil {
				t.Fatal(err)
			}
			if string(added) != tc.added {
				t.Fatalf("add gave\n%q\nwant\n%q", added, tc.added)
			}
			a, err := Parse("/h/config.json", added)
			if err != nil {
				t.Fatal(err)
			}
			if again, err := a.AddString(deny, "mcp__s__t"); err != nil || string(again) != tc.added {
				t.Fatalf("adding it again gave %q, %v; want the file as it was", again, err)
			}
			back, err := a.RemoveString(deny, "mcp__s__t")
			if err != nil {
				t.Fatal(err)
			}
			want := tc.src
			if want == "" {
				want = "{}\n" // as Edit leaves a created file
			}
			if string(back) != want {
				t.Fatalf("remove gave\n%q\nwant\n%q", back, want)
			}
		})
	}
}

// TestRemoveStringKeepsTheOthers removes one element among others: its line
// goes, every other element keeps its comments and commas.
func TestRemoveStringKeepsTheOthers(t *testing.T) {
	tests := []struct{ name, src, value, want string }{
		{"middle, with comments", "{\"permissions\": {\"deny\": [\n  \"Exec(sudo)\", // never\n  \"mcp__s__t\",\n  \"Read(.env)\" // secrets\n]}}",
			"mcp__s__t", "{\"permissions\": {\"deny\": [\n  \"Exec(sudo)\", // never\n  \"Read(.env)\" // secrets\n]}}"},
		{"last, trailing comma", "{\"permissions\": {\"deny\": [\n  \"Exec(sudo)\", // never\n  \"mcp__s__t\",\n],},}",
			"mcp__s__t", "{\"permissions\": {\"deny\": [\n  \"Exec(sudo)\", // never\n],},}"},
		{"last, no trailing comma", "{\"permissions\": {\"deny\": [\n  \"a\",\n  \"mcp__s__t\"\n]}}",
			"mcp__s__t", "{\"permissions\": {\"deny\": [\n  \"a\"\n]}}"},
		{"first, one line", `{"permissions": {"deny": ["mcp__s__t", "a", "b"]}}`,
			"mcp__s__t", `{"permissions": {"deny": ["a", "b"]}}`},
		{"the only one, list not last", "{\"permissions\": {\"deny\": [\"mcp__s__t\"], \"allow\": [\"x\"]}}",
			"mcp__s__t", "{\"permissions\": {\"deny\": [], \"allow\": [\"x\"]}}"},
		{"the only one, with a comment", "{\"permissions\": {\"deny\": [\n  // chronicle's\n  \"mcp__s__t\"\n]}}",
			"mcp__s__t", "{\"permissions\": {\"deny\": [\n  // chronicle's\n]}}"},
		{"missing value", `{"permissions": {"deny": ["a"]}}`, "b", `{"permissions": {"deny": ["a"]}}`},
		{"missing list", `{"permissions": {}}`, "b", `{"permissions": {}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse("f", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.RemoveString(deny, tc.value)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestStringEditsRefuse(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"element twice", `{"permissions": {"deny": ["x", "a", "x"]}}`, `/h/config.json: ["permissions","deny"] holds "x" more than once; remove the duplicates`},
		{"not a list", "{\n  \"permissions\": {\n    \"deny\": \"x\"\n  }\n}", `/h/config.json:3:13: ["permissions","deny"] is not a list`},
		{"not an object", "{\"permissions\": [\"x\"]}", `/h/config.json:1:17: ["permissions"] is not an object`},
		{"key twice", `{"permissions": {"deny": []}, "permissions": {}}`, `/h/config.json: the top-level object holds "permissions" more than once`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse("/h/config.json", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			for op, f := range map[string]func([]string, string) ([]byte, error){"add": d.AddString, "remove": d.RemoveString} {
				got, err := f(deny, "x")
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s gave %q, %v; want an error containing %q", op, got, err, tc.want)
				}
			}
		})
	}
}

// TestStringEditOfAPartlyReadDocument edits a list a document of ParseOnly
// reads, and refuses one it does not.
func TestStringEditOfAPartlyReadDocument(t *testing.T) {
	src := []byte(`{"history": [{"a": 1}], "permissions": {"deny": ["a"]}}`)
	d, err := ParseOnly("f", src, []string{"permissions"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.AddString(deny, "b")
	if err != nil || string(got) != `{"history": [{"a": 1}], "permissions": {"deny": ["a", "b"]}}` {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := d.AddString([]string{"history"}, "b"); err == nil {
		t.Fatal("an edit of a part the document does not read succeeded")
	}
}

// FuzzAddRemoveString feeds arbitrary documents: adding a rule to a list
// and removing it never panics, what AddString writes verifies (it checks
// itself), and when the list existed with elements and without the rule,
// removing the rule gives back the document byte for byte.
func FuzzAddRemoveString(f *testing.F) {
	f.Add([]byte("{\n  \"permissions\": {\n    \"deny\": [\n      \"Exec(sudo)\", // never\n      \"Read(.env)\",\n    ],\n  },\n}\n"))
	f.Add([]byte(`{"permissions": {"deny": ["a", /* b */ "b"], "allow": []}}`))
	f.Add([]byte(`{"permissions": {"deny": [ ]}}`))
	f.Add([]byte(`{"permissions": {"deny": ["x", "x"]}}`))
	f.Add([]byte(`{"permissions": []}`))
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse("f", src)
		if err != nil {
			return
		}
		before := d.Strings(deny...)
		added, err := d.AddString(deny, "mcp__s__t")
		if err != nil {
			if strings.Contains(err.Error(), "edited file") || strings.Contains(err.Error(), "would change") {
				t.Fatalf("AddString failed its own verification: %v\n%q", err, src)
			}
			return // a refusal: a duplicate, a value that is not a list or object
		}
		a, err := Parse("f", added)
		if err != nil {
			t.Fatalf("AddString wrote a document that does not parse: %v\n%q", err, added)
		}
		back, err := a.RemoveString(deny, "mcp__s__t")
		if err != nil {
			t.Fatalf("remove after add failed: %v\n%q", err, added)
		}
		list, _ := d.Lookup(deny...)
		elements, _ := list.([]any)
		if len(elements) > 0 && !slices.Contains(before, "mcp__s__t") && !bytes.Equal(back, src) {
			t.Fatalf("add then remove changed the document:\nbefore: %q\nadded:  %q\nafter:  %q", src, added, back)
		}
	})
}
