package yamlfile

import (
	"strings"
	"testing"
)

// goose is a config.yaml as people keep it: comments, blank lines, flow
// lists, entries of several shapes.
const goose = `# goose configuration
GOOSE_PROVIDER: anthropic   # the default
GOOSE_MODEL: claude-sonnet-4-5

extensions:
  # built in
  developer:
    bundled: true
    enabled: true
    name: developer
    timeout: 300
    type: builtin

  github:
    # the token is in the keyring
    cmd: npx
    args: ["-y", "@modelcontextprotocol/server-github"]
    env_keys:
      - GITHUB_TOKEN
    enabled: true   # on
    name: github
    type: stdio

  # remote
  linear:
    enabled: false
    name: linear
    type: streamable_http
    uri: https://mcp.linear.app/mcp
  # memory is off for now

GOOSE_MODE: smart_approve
`

func TestAddAtTheEndOfTheMap(t *testing.T) {
	out := edit(t, goose, set("fetch", entry(t, "enabled", true, "type", "stdio", "name", "fetch", "cmd", "uvx", "args", []string{"mcp-server-fetch"})))
	// The entries are kept apart by blank lines: so is the new one.
	want := strings.Replace(goose, "    uri: https://mcp.linear.app/mcp\n",
		"    uri: https://mcp.linear.app/mcp\n\n  fetch:\n    enabled: true\n    type: stdio\n    name: fetch\n    cmd: uvx\n    args:\n      - mcp-server-fetch\n", 1)
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if back := edit(t, out, unset("fetch")); back != goose {
		t.Fatalf("adding then removing did not give back the file:\n%s", back)
	}
}

func TestReplaceKeepsEverythingElse(t *testing.T) {
	d, err := Parse("config.yaml", []byte(goose))
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := d.Entries([]string{"extensions"})
	gh := entries[1]
	m := NewMap()
	for _, pr := range Pairs(gh.Node) {
		if pr.Key.Value == "cmd" {
			// A changed field keeps its key node, and so the comment above it.
			v, _ := Encode("bunx")
			m.AddNode(Copy(pr.Key), v)
			continue
		}
		m.AddNode(Copy(pr.Key), Copy(pr.Value))
	}
	out := edit(t, goose, set("github", m))
	before, after, _ := strings.Cut(goose, "  github:\n")
	_, after, _ = strings.Cut(after, "    type: stdio\n")
	if !strings.HasPrefix(out, before) || !strings.HasSuffix(out, after) {
		t.Fatalf("bytes outside the entry changed:\n%s", out)
	}
	for _, kept := range []string{"# the token is in the keyring", `args: ["-y", "@modelcontextprotocol/server-github"]`, "enabled: true # on", "cmd: bunx"} {
		if !strings.Contains(out, kept) {
			t.Errorf("missing %q in\n%s", kept, out)
		}
	}
}

func TestRemoveBetweenEntriesLeavesOneBlankLine(t *testing.T) {
	out := edit(t, goose, unset("github"))
	want := strings.Replace(goose, `  github:
    # the token is in the keyring
    cmd: npx
    args: ["-y", "@modelcontextprotocol/server-github"]
    env_keys:
      - GITHUB_TOKEN
    enabled: true   # on
    name: github
    type: stdio

`, "", 1)
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

func TestCreatesTheMap(t *testing.T) {
	for _, src := range []string{"", "GOOSE_MODE: auto\n", "GOOSE_MODE: auto", "# only a comment\n"} {
		m := entry(t, "enabled", true, "type", "stdio", "name", "x", "cmd", "x", "args", []string{})
		out := edit(t, src, set("x", m))
		if !strings.HasSuffix(out, "extensions:\n  x:\n    enabled: true\n    type: stdio\n    name: x\n    cmd: x\n    args: []\n") || !strings.HasPrefix(out, src) {
			t.Errorf("%q: got\n%s", src, out)
		}
		back := edit(t, out, unset("x"))
		if want := strings.TrimSuffix(src, "GOOSE_MODE: auto") + map[bool]string{true: "GOOSE_MODE: auto\n"}[src == "GOOSE_MODE: auto"]; back != want {
			t.Errorf("%q: removing gave %q", src, back)
		}
	}
}

func TestMissingFile(t *testing.T) {
	d, _ := Parse("config.yaml", nil)
	if out, err := d.Edit([]Change{unset("x")}); err != nil || out != nil {
		t.Fatalf("removing from a missing file: %q, %v", out, err)
	}
	out, err := d.Edit([]Change{set("x", entry(t, "enabled", true))})
	if err != nil || string(out) != "extensions:\n  x:\n    enabled: true\n" {
		t.Fatalf("got %q, %v", out, err)
	}
	d, _ = Parse("config.yaml", out)
	if out, err := d.Edit([]Change{unset("x")}); err != nil || out == nil || len(out) != 0 {
		t.Fatalf("emptying the file gave %q, %v; want an empty file", out, err)
	}
}

func TestEmptyMapValues(t *testing.T) {
	for src, want := range map[string]string{
		"extensions:\nGOOSE_MODE: auto\n":              "extensions:\n  x:\n    enabled: true\nGOOSE_MODE: auto\n",
		"extensions: ~\n":                              "extensions:\n  x:\n    enabled: true\n",
		"extensions: {}   # none yet\nGOOSE_MODE: a\n": "extensions:   # none yet\n  x:\n    enabled: true\nGOOSE_MODE: a\n",
		"extensions: null":                             "extensions:\n  x:\n    enabled: true\n",
	} {
		if out := edit(t, src, set("x", entry(t, "enabled", true))); out != want {
			t.Errorf("%q: got %q, want %q", src, out, want)
		}
	}
}

func TestRemovingTheLastEntry(t *testing.T) {
	src := "a: 1\n\nextensions:\n  x:\n    enabled: true\n\nb: 2\n"
	if out := edit(t, src, unset("x")); out != "a: 1\n\nb: 2\n" {
		t.Errorf("got %q", out)
	}
	// Comments under the key are the user's: they stay, with {}.
	src = "extensions:\n  # mine\n  x:\n    enabled: true\nb: 2\n"
	if out := edit(t, src, unset("x")); out != "extensions: {}\n  # mine\nb: 2\n" {
		t.Errorf("got %q", out)
	}
}

func TestIndentationIsTheFiles(t *testing.T) {
	src := "extensions:\n    a:\n        enabled: true\n"
	out := edit(t, src, set("b", entry(t, "enabled", false, "args", []string{"x"})))
	if want := src + "    b:\n        enabled: false\n        args:\n            - x\n"; out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
}

func TestCRLF(t *testing.T) {
	src := "extensions:\r\n  a:\r\n    enabled: true\r\n\r\nother: 1\r\n"
	out := edit(t, src, set("b", entry(t, "enabled", true)))
	if want := "extensions:\r\n  a:\r\n    enabled: true\r\n  b:\r\n    enabled: true\r\n\r\nother: 1\r\n"; out != want {
		t.Fatalf("got %q", out)
	}
	if back := edit(t, out, unset("b")); back != src {
		t.Fatalf("got %q", back)
	}
}

func TestRefusals(t *testing.T) {
	x := set("x", entry(t, "enabled", true))
	editErr(t, "extensions: {a: {enabled: true}}\n", []string{"extensions", "flow style"}, x)
	editErr(t, "extensions:\n  a: {enabled: true}\n", []string{"extensions.a", "flow style"}, set("a", entry(t, "enabled", false)))
	editErr(t, "extensions:\n  a: {enabled: true}\n", []string{"extensions.a", "flow style"}, unset("a"))
	editErr(t, "base: &b\n  enabled: true\nextensions:\n  a: *b\n", []string{"extensions.a", "anchors or aliases"}, unset("a"))
	editErr(t, "base: &b {enabled: true}\nextensions:\n  <<: *b\n  a:\n    enabled: true\n", []string{"merge key"}, x)
	editErr(t, "extensions: &e\n  a:\n    enabled: true\n", []string{"anchor or alias"}, x)
	editErr(t, "extensions:\n  a:\n    enabled: true\r  b: 1\n", []string{"line breaks"}, x)
	editErr(t, "extensions: [a, b]\n", []string{"a list, not a mapping"}, x)
	editErr(t, "{extensions: {}}\n", []string{"flow style"}, x)
	editErr(t, "a:\n  extensions: 1\n", []string{"adds maps only at the top level"}, Change{KeyPath: []string{"a", "b"}, Name: "x", Value: entry(t, "v", 1).Node()})
	editErr(t, "extensions:\n  a:\n    enabled: true\n", []string{"changed twice"}, x, x)
}

// TestBlockScalarTail: the last line of a block scalar that looks like a
// comment is outside the span by the rule; replacing the entry leaves it as
// a comment line — the text is kept, and the file means what was intended.
func TestBlockScalarTail(t *testing.T) {
	src := "extensions:\n  a:\n    note: |\n      text\n      # not a comment\nother: 1\n"
	out := edit(t, src, set("a", entry(t, "enabled", true)))
	if want := "extensions:\n  a:\n    enabled: true\n      # not a comment\nother: 1\n"; out != want {
		t.Fatalf("got %q", out)
	}
}

// TestVerify: bytes that change anything besides the intended entries are
// refused, naming the entry.
func TestVerify(t *testing.T) {
	d, _ := Parse("config.yaml", []byte(goose))
	x := set("fetch", entry(t, "enabled", true))
	for _, tc := range []struct{ out, want string }{
		{strings.Replace(goose, "GOOSE_MODE: smart_approve", "GOOSE_MODE: auto", 1) + "  fetch:\n    enabled: true\n", "does not parse"},
		{strings.Replace(goose, "    uri: https://mcp.linear.app/mcp\n", "    uri: https://mcp.linear.app/mcp\n  fetch:\n    enabled: false\n", 1), "extensions.fetch in the edited file is not the intended entry"},
		{strings.Replace(strings.Replace(goose, "GOOSE_MODE: smart_approve", "GOOSE_MODE: auto", 1), "    uri: https://mcp.linear.app/mcp\n", "    uri: https://mcp.linear.app/mcp\n  fetch:\n    enabled: true\n", 1), "would change more than that entry"},
	} {
		err := d.verify([]byte(tc.out), []Change{x}, [][]string{{"extensions"}})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("verify: %v, want %q", err, tc.want)
		}
	}
}

func TestSeveralChangesInOnePass(t *testing.T) {
	out := edit(t, goose,
		unset("developer"),
		set("linear", entry(t, "enabled", true, "name", "linear", "type", "streamable_http", "uri", "https://mcp.linear.app/mcp")),
		set("fetch", entry(t, "enabled", true)),
		set("zed", entry(t, "enabled", true)))
	for _, want := range []string{"  # built in\n\n  github:", "  linear:\n    enabled: true\n", "\n\n  fetch:\n    enabled: true\n\n  zed:\n    enabled: true\n  # memory is off for now\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
