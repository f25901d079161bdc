package machine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

func TestEdit(t *testing.T) {
	const start = "# mine\nproject = \"old\" # by hand\n\nmachine {\n  name = \"w\" # kept\n  tags = [\"a\"]\n}\n"
	for _, tc := range []struct {
		name string
		src  string
		edit Edit
		want string
		err  string
	}{
		{"string value", start, Edit{Set: "project", Value: "~/work"},
			"# mine\nproject = \"~/work\" # by hand\n\nmachine {\n  name = \"w\" # kept\n  tags = [\"a\"]\n}\n", ""},
		{"HCL literal", "", Edit{Set: "orgs", Value: `["acme", "beta"]`}, "orgs = [\"acme\", \"beta\"]\n", ""},
		{"number", "", Edit{Set: "level", Value: "3"}, "level = 3\n", ""},
		{"a word is a string", "", Edit{Set: "dir", Value: "work"}, "dir = \"work\"\n", ""},
		{"a call other than secret is a string", "", Edit{Set: "dir", Value: `file("x")`}, "dir = \"file(\\\"x\\\")\"\n", ""},
		{"secret reference", "", Edit{Set: "api_token", Value: `secret("env:T")`}, "api_token = secret(\"env:T\")\n", ""},
		{"plain secret by name", "", Edit{Set: "api_token", Value: "abc"}, "", "is a secret"},
		{"plain secret, sensitive", "", Edit{Set: "key", Value: `"abc"`, Secret: true}, "", "is a secret"},
		{"bad name", "", Edit{Set: "1x", Value: "a"}, "", "not a variable name"},
		{"tag and untag", start, Edit{Tag: []string{"b", "a"}, Untag: []string{"a"}},
			"# mine\nproject = \"old\" # by hand\n\nmachine {\n  name = \"w\" # kept\n  tags = [\"b\"]\n}\n", ""},
		{"tag creates the block", "x = 1\n", Edit{Tag: []string{"work"}}, "x = 1\n\nmachine {\n  tags = [\"work\"]\n}\n", ""},
		{"broken file is left alone", "x = \n", Edit{Set: "y", Value: "1"}, "", "m.hcl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "m.hcl")
			if tc.src != "" {
				if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := tc.edit.Apply(fsys.OS{}, path)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one with %q", err, tc.err)
				}
				if got, _ := os.ReadFile(path); string(got) != tc.src {
					t.Errorf("the file changed on error: %q", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.want {
				t.Errorf("file =\n%s\nwant\n%s", got, tc.want)
			}
			info, _ := os.Stat(path)
			if info.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600", info.Mode().Perm())
			}
		})
	}
}

func TestParse(t *testing.T) {
	f, diags := Parse("m.hcl", []byte("b = 2\na = 1\nmachine {\n  name = \"n\"\n  tags = [\"y\", \"x\", \"y\"]\n}\n"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(f.Values) != 2 || f.Values[0].Name != "b" || f.Values[1].Name != "a" {
		t.Errorf("values not in file order: %v", f.Values)
	}
	facts := Gather("/h", f)
	if facts.Name != "n" || strings.Join(facts.Tags, ",") != "x,y" || facts.Home != "/h" {
		t.Errorf("facts = %+v", facts)
	}
	for src, want := range map[string]string{
		"machine {\n}\nmachine {\n}\n":   "Duplicate machine block",
		"service \"x\" {\n}\n":           "Unexpected block",
		"machine {\n  name = 3 + 4\n}\n": "",
		"machine {\n  tags = \"a\"\n}\n": "Invalid machine tags",
		"machine {\n  name = var.x\n}\n": "Variables not allowed",
	} {
		_, diags := Parse("m.hcl", []byte(src))
		if want == "" {
			if diags.HasErrors() {
				t.Errorf("%q: %v", src, diags)
			}
			continue
		}
		if !strings.Contains(diags.Error(), want) {
			t.Errorf("%q: diags %v, want %q", src, diags, want)
		}
	}
	// No machine block: the short hostname names the machine.
	host, _ := os.Hostname()
	short, _, _ := strings.Cut(host, ".")
	if got := Gather("/h", nil).Name; got != short {
		t.Errorf("name %q, want %q", got, short)
	}
}
