package markers

import (
	"errors"
	"strings"
	"testing"
)

func body(s string) *string { return &s }

func TestParse(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		ids    []string
		bodies []string
		err    string // "line N: part of the message"
	}{
		{name: "empty", src: ""},
		{name: "no markers", src: "# Notes\n\ntext\n"},
		{name: "one block", src: "a\n<!-- chronicle:begin rule.x -->\nbody\n<!-- chronicle:end rule.x -->\nb\n", ids: []string{"rule.x"}, bodies: []string{"body\n"}},
		{name: "crlf", src: "a\r\n<!-- chronicle:begin rule.x -->\r\nl1\r\nl2\r\n<!-- chronicle:end rule.x -->\r\n", ids: []string{"rule.x"}, bodies: []string{"l1\nl2\n"}},
		{name: "empty body, no final newline", src: "<!-- chronicle:begin rule.x -->\n<!-- chronicle:end rule.x -->", ids: []string{"rule.x"}, bodies: []string{""}},
		{name: "two blocks", src: "<!-- chronicle:begin rule.a -->\n1\n<!-- chronicle:end rule.a -->\n\n<!-- chronicle:begin import.agents-md -->\n@AGENTS.md\n<!-- chronicle:end import.agents-md -->\n", ids: []string{"rule.a", "import.agents-md"}, bodies: []string{"1\n", "@AGENTS.md\n"}},
		{name: "indented marker is text", src: "  <!-- chronicle:begin rule.x -->\n", ids: nil},
		{name: "marker with more text is text", src: "<!-- chronicle:begin rule.x --> hi\n<!--chronicle:end rule.x-->\n", ids: nil},
		{name: "marker in a fence is a marker", src: "```\n<!-- chronicle:begin rule.x -->\n```\n", err: ":2: chronicle:begin rule.x has no chronicle:end"},
		{name: "end without begin", src: "a\n<!-- chronicle:end rule.x -->\n", err: ":2: chronicle:end rule.x has no chronicle:begin"},
		{name: "begin without end", src: "<!-- chronicle:begin rule.x -->\nbody\n", err: ":1: chronicle:begin rule.x has no chronicle:end"},
		{name: "nested", src: "<!-- chronicle:begin rule.a -->\n<!-- chronicle:begin rule.b -->\n", err: ":2: chronicle:begin rule.b inside block rule.a, opened at line 1"},
		{name: "crossed", src: "<!-- chronicle:begin rule.a -->\n<!-- chronicle:end rule.b -->\n", err: ":2: chronicle:end rule.b closes block rule.a, opened at line 1"},
		{name: "duplicate", src: "<!-- chronicle:begin rule.a -->\n<!-- chronicle:end rule.a -->\n<!-- chronicle:begin rule.a -->\n<!-- chronicle:end rule.a -->\n", err: ":3: block rule.a is marked twice (first at line 1)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("/p/AGENTS.md", []byte(c.src))
			if c.err != "" {
				var me *Error
				if !errors.As(err, &me) || !strings.Contains(err.Error(), "/p/AGENTS.md"+c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				if !strings.Contains(err.Error(), "changes nothing in this file") {
					t.Fatalf("err does not say nothing changes: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Blocks()) != len(c.ids) {
				t.Fatalf("blocks = %v, want %v", f.Blocks(), c.ids)
			}
			for i, b := range f.Blocks() {
				if b.ID != c.ids[i] || f.Body(b) != c.bodies[i] {
					t.Fatalf("block %d = %s %q, want %s %q", i, b.ID, f.Body(b), c.ids[i], c.bodies[i])
				}
			}
		})
	}
}

func TestSplice(t *testing.T) {
	a, b := "rule a\n", "rule b\n"
	block := func(id, body string) string { return Begin(id) + "\n" + body + End(id) + "\n" }
	cases := []struct {
		name string
		src  string
		ops  []Op
		want string
	}{
		{"create in an empty file", "", []Op{{"rule.a", &a}}, block("rule.a", a)},
		{"append after one blank line", "# Mine\n", []Op{{"rule.a", &a}}, "# Mine\n\n" + block("rule.a", a)},
		{"append to text without a final newline, which keeps none", "# Mine", []Op{{"rule.a", &a}}, "# Mine\n\n" + Begin("rule.a") + "\n" + a + End("rule.a")},
		{"remove the block appended to text without a final newline", "# Mine\n\n" + Begin("rule.a") + "\n" + a + End("rule.a"), []Op{{"rule.a", nil}}, "# Mine"},
		{"a second block after one that ends the file without a newline", "# Mine\n\n" + Begin("rule.a") + "\n" + a + End("rule.a"), []Op{{"rule.b", &b}},
			"# Mine\n\n" + block("rule.a", a) + "\n" + Begin("rule.b") + "\n" + b + End("rule.b")},
		{"remove the second of those", "# Mine\n\n" + block("rule.a", a) + "\n" + Begin("rule.b") + "\n" + b + End("rule.b"), []Op{{"rule.b", nil}},
			"# Mine\n\n" + Begin("rule.a") + "\n" + a + End("rule.a")},
		{"add to a crlf file without a final newline, then remove", "# Mine\r\nx", []Op{{"rule.a", &a}, {"rule.a", nil}}, "# Mine\r\nx"},
		{"second block goes after the first, before the user's tail", "# Mine\n\n" + block("rule.a", a) + "tail\n", []Op{{"rule.b", &b}},
			"# Mine\n\n" + block("rule.a", a) + "\n" + block("rule.b", b) + "tail\n"},
		{"replace keeps everything around", "x\n" + block("rule.a", a) + "y\n", []Op{{"rule.a", body("new\n")}}, "x\n" + block("rule.a", "new\n") + "y\n"},
		{"remove the only appended block", "# Mine\n\n" + block("rule.a", a), []Op{{"rule.a", nil}}, "# Mine\n"},
		{"remove the first of two", "# Mine\n\n" + block("rule.a", a) + "\n" + block("rule.b", b), []Op{{"rule.a", nil}}, "# Mine\n\n" + block("rule.b", b)},
		{"remove the second, before the user's tail", "# Mine\n\n" + block("rule.a", a) + "\n" + block("rule.b", b) + "tail\n", []Op{{"rule.b", nil}}, "# Mine\n\n" + block("rule.a", a) + "tail\n"},
		{"remove takes the blank line chronicle added, keeps the user's", "x\n\n" + block("rule.a", a) + "\ny\n", []Op{{"rule.a", nil}}, "x\n\ny\n"},
		{"remove before the user's text that follows at once", "x\n\n" + block("rule.a", a) + "y\n", []Op{{"rule.a", nil}}, "x\ny\n"},
		{"remove both of two, the user's text after them", "x\n\n" + block("rule.a", a) + "\n" + block("rule.b", b) + "\ny\n", []Op{{"rule.a", nil}, {"rule.b", nil}}, "x\n\ny\n"},
		{"remove the last block of a created file", block("rule.a", a), []Op{{"rule.a", nil}}, ""},
		{"remove a missing block changes nothing", "x\n", []Op{{"rule.a", nil}}, "x\n"},
		{"crlf file gets crlf", "# Mine\r\n", []Op{{"rule.a", body("l1\nl2\n")}}, "# Mine\r\n\r\n" + Begin("rule.a") + "\r\nl1\r\nl2\r\n" + End("rule.a") + "\r\n"},
		{"crlf remove", "# Mine\r\n\r\n" + Begin("rule.a") + "\r\nl1\r\n" + End("rule.a") + "\r\n", []Op{{"rule.a", nil}}, "# Mine\r\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Splice("f", []byte(c.src), c.ops)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func TestSpliceRefusesBrokenMarkers(t *testing.T) {
	src := "x\n<!-- chronicle:begin rule.a -->\n"
	if _, err := Splice("f", []byte(src), []Op{{"rule.b", body("b\n")}}); err == nil {
		t.Fatal("a file with an unpaired marker was edited")
	}
}

func TestHasLineAndOutside(t *testing.T) {
	src := "@AGENTS.md\n" + Begin("import.agents-md") + "\n@OTHER.md\n" + End("import.agents-md") + "\n"
	f, err := Parse("f", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !f.HasLine("@AGENTS.md") || f.HasLine("@OTHER.md") {
		t.Fatal("HasLine looks inside blocks or misses the user's line")
	}
	if string(f.Outside()) != "@AGENTS.md\n" {
		t.Fatalf("Outside = %q", f.Outside())
	}
}

func TestFindMarker(t *testing.T) {
	if n, ok := FindMarker("a\n" + End("rule.x") + "\n"); !ok || n != 2 {
		t.Fatalf("FindMarker = %d %v", n, ok)
	}
	if _, ok := FindMarker("a\n  " + End("rule.x")); ok {
		t.Fatal("an indented marker counted")
	}
}
