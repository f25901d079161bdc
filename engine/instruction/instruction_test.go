package instruction

import (
	"slices"
	"testing"
)

func TestPlaceholders(t *testing.T) {
	body := "Review $ARGUMENTS, then $1 and $2; cost $10 and $x and $ARGUMENTS again.\n"
	if got := Placeholders(body); !slices.Equal(got, []string{"$ARGUMENTS", "$1", "$2"}) {
		t.Fatalf("Placeholders = %v", got)
	}
	gemini := Table{Arguments: "{{args}}"}
	out, missing := gemini.Translate(body)
	if out != "Review {{args}}, then $1 and $2; cost $10 and $x and {{args}} again.\n" || !slices.Equal(missing, []string{"$1", "$2"}) {
		t.Fatalf("Translate = %q %v", out, missing)
	}
	if back := gemini.Reverse(out); back != body {
		t.Fatalf("Reverse = %q", back)
	}
	vscode := Table{Arguments: "${input:arguments}", "$1": "${input:arg1}", "$2": "${input:arg2}"}
	out, missing = vscode.Translate(body)
	if len(missing) != 0 || vscode.Reverse(out) != body {
		t.Fatalf("vscode round trip: %q %v", out, missing)
	}
}

func TestSplitAndHeader(t *testing.T) {
	fm, body, err := Split([]byte("\ufeff---\r\ndescription: Go style\r\nglobs: \"**/*.go, *.mod\"\r\ntools: [Read, Grep]\r\n---\r\n\r\n# Go\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d, _, _ := fm.String("description"); d != "Go style" || body != "# Go\n" {
		t.Fatalf("Split = %v %q", fm, body)
	}
	if g, _, _ := fm.List("globs"); !slices.Equal(g, []string{"**/*.go", "*.mod"}) {
		t.Fatalf("globs = %v", g)
	}
	if tl, _, _ := fm.List("tools"); !slices.Equal(tl, []string{"Read", "Grep"}) {
		t.Fatalf("tools = %v", tl)
	}
	if fm, body, _ := Split([]byte("no header\n")); fm != nil || body != "no header\n" {
		t.Fatal("a file without front matter")
	}
	var h Header
	h.Add("description", "Reviews: carefully")
	h.Add("tools", []string{"Read", "Grep"})
	h.Add("model", "")
	h.Raw("globs", "**/*.go")
	h.Add("alwaysApply", false)
	got := string(h.Markdown("Body\n"))
	want := "---\ndescription: 'Reviews: carefully'\ntools: [Read, Grep]\nglobs: **/*.go\nalwaysApply: false\n---\n\nBody\n"
	if got != want {
		t.Fatalf("Markdown =\n%s\nwant\n%s", got, want)
	}
	var empty Header
	if string(empty.Markdown("Body\n")) != "Body\n" {
		t.Fatal("an empty header wrote something")
	}
}

func TestNormal(t *testing.T) {
	for in, want := range map[string]string{"": "", "\n\n": "", "a": "a\n", "\r\n\r\na\r\nb\r\n\r\n": "a\nb\n"} {
		if got := Normal(in); got != want {
			t.Errorf("Normal(%q) = %q, want %q", in, got, want)
		}
	}
}
