package tomlfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var servers = []string{"mcp_servers"}

// fixture reads a codex fixture from the repository's testdata.
func fixture(t testing.TB, scope string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "codex", scope, ".codex", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var sample = Table{
	{"command", "npx"},
	{"args", []string{"-y", "pkg"}},
	{"env", map[string]string{"A": "1"}},
	{"extra", Table{{"k", int64(1)}}},
}

// documents are the starting points of the round-trip tests.
func documents(t testing.TB) map[string][]byte {
	return map[string][]byte{
		"home fixture":          fixture(t, "home"),
		"project fixture":       fixture(t, "project"),
		"empty":                 nil,
		"no mcp_servers":        []byte("# settings\nmodel = \"o3\"\n\n[features]\nx = true\n"),
		"no final newline":      []byte("model = \"o3\""),
		"table at end, no eol":  []byte("[mcp_servers.a]\ncommand = \"a\""),
		"crlf":                  []byte("model = \"o3\"\r\n\r\n[mcp_servers.a]\r\ncommand = \"a\"\r\n"),
		"bare header":           []byte("[mcp_servers]\n"),
		"dotted under header":   []byte("[mcp_servers]\na.command = \"a\"\n\n[other]\nk = 1\n"),
		"root dotted":           []byte("mcp_servers.a.command = \"a\"\n"),
		"blank lines only":      []byte("\n\n"),
		"comment only, no eol":  []byte("# nothing here"),
		"servers then trailing": []byte("[mcp_servers.a]\ncommand = \"a\"\n# trailing note\n\n[other]\nk = 1\n"),
	}
}

func TestAddThenRemoveGivesBackTheBytes(t *testing.T) {
	for docName, doc := range documents(t) {
		for _, name := range []string{"added", "weird.name"} {
			t.Run(docName+"/"+name, func(t *testing.T) {
				added, err := Set(doc, servers, name, sample)
				if err != nil {
					t.Fatalf("Set: %v", err)
				}
				if !bytes.Contains(added, []byte("[mcp_servers."+quoteKey(name)+"]")) {
					t.Fatalf("Set did not write the header:\n%s", added)
				}
				if !insertedOnly(doc, added) {
					t.Errorf("Set changed bytes around the new entry:\n%s", added)
				}
				removed, err := Delete(added, servers, name)
				if err != nil {
					t.Fatalf("Delete: %v", err)
				}
				if !bytes.Equal(removed, doc) {
					t.Errorf("add then remove changed the file:\n got %q\nwant %q", removed, doc)
				}
			})
		}
	}
}

// insertedOnly reports whether out is doc with bytes inserted at one place.
func insertedOnly(doc, out []byte) bool {
	prefix := 0
	for prefix < len(doc) && prefix < len(out) && doc[prefix] == out[prefix] {
		prefix++
	}
	return bytes.HasSuffix(out[prefix:], doc[prefix:])
}

func TestSetReplacesOnlyTheEntry(t *testing.T) {
	home := string(fixture(t, "home"))
	tests := []struct {
		name       string
		start, end string // the old span: from start up to (not including) end
	}{
		{"postgres", "[mcp_servers.postgres]\n", "\n[mcp_servers.github]"},
		{"chronova", "[mcp_servers.chronova]\n", "\n[mcp_servers.postgres]"},
		{"sentry", "[mcp_servers.sentry]\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Set([]byte(home), servers, tt.name, sample)
			if err != nil {
				t.Fatal(err)
			}
			i := strings.Index(home, tt.start)
			j := len(home)
			if tt.end != "" {
				j = strings.Index(home, tt.end)
			}
			text, err := sample.Render([]string{"mcp_servers", tt.name})
			if err != nil {
				t.Fatal(err)
			}
			want := home[:i] + string(text) + home[j:]
			if string(out) != want {
				t.Errorf("replace %s:\n got %s\nwant %s", tt.name, out, want)
			}
		})
	}
}

// TestDeleteKeepsCommentsAndTakesOneBlankLine: the comments above a removed
// entry are never deleted (they may be the user's), one blank line goes with it.
func TestDeleteKeepsCommentsAndTakesOneBlankLine(t *testing.T) {
	doc := "a = 1\n\n# about x\n[mcp_servers.x]\ncommand = \"x\"\n# inside x\n[mcp_servers.x.env]\nK = \"v\"\n\n[mcp_servers.y]\ncommand = \"y\"\n"
	tests := []struct{ name, want string }{
		{"x", "a = 1\n\n# about x\n[mcp_servers.y]\ncommand = \"y\"\n"},
		{"y", "a = 1\n\n# about x\n[mcp_servers.x]\ncommand = \"x\"\n# inside x\n[mcp_servers.x.env]\nK = \"v\"\n"},
		{"absent", doc},
	}
	for _, tt := range tests {
		got, err := Delete([]byte(doc), servers, tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("Delete(%s):\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestOtherForms(t *testing.T) {
	tests := []struct {
		name, doc, entry string
		deleted          string
		setRefused       bool
	}{
		{"inline under header", "[mcp_servers]\nx = { command = \"x\" }\ny = { command = \"y\" }\n", "x",
			"[mcp_servers]\ny = { command = \"y\" }\n", true},
		{"inline over lines", "[mcp_servers]\nx = {\n  command = \"x\", # mine\n}\n", "x",
			"[mcp_servers]\n", true},
		{"dotted under header", "[mcp_servers]\nx.command = \"x\"\nx.args = [\"a\"]\ny.command = \"y\"\n", "x",
			"[mcp_servers]\ny.command = \"y\"\n", false},
		{"root dotted", "mcp_servers.x.command = \"x\"\nmodel = \"o3\"\n", "x",
			"model = \"o3\"\n", false},
		{"spread over the file", "[mcp_servers.x]\ncommand = \"x\"\n\n[other]\nk = 1\n\n[mcp_servers.x.env]\nA = \"1\"\n", "x",
			"[other]\nk = 1\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Delete([]byte(tt.doc), servers, tt.entry)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.deleted {
				t.Errorf("Delete:\n got %q\nwant %q", got, tt.deleted)
			}
			set, err := Set([]byte(tt.doc), servers, tt.entry, sample)
			if tt.setRefused {
				if err == nil || !strings.Contains(err.Error(), "written inline") {
					t.Errorf("Set of an inline entry: got %q, %v; want it refused", set, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Parse("x.toml", set)
			if err != nil {
				t.Fatal(err)
			}
			entries, _ := doc.Entries(servers)
			for _, e := range entries {
				if e.Name == tt.entry && e.Table["command"] != "npx" {
					t.Errorf("Set left %v:\n%s", e.Table, set)
				}
			}
		})
	}
}

func TestInlineServerMapIsRefused(t *testing.T) {
	for _, doc := range []string{
		"mcp_servers = { x = { command = \"x\" } }\n",
		"[[mcp_servers]]\ncommand = \"x\"\n",
	} {
		if _, err := Set([]byte(doc), servers, "x", sample); err == nil {
			t.Errorf("Set on %q: want an error", doc)
		}
		if _, err := Delete([]byte(doc), servers, "x"); err == nil {
			t.Errorf("Delete on %q: want an error", doc)
		}
	}
}

func TestQuotedNamesAreTheirOwnEntries(t *testing.T) {
	doc := []byte("[mcp_servers.weird]\ncommand = \"w\"\n\n[mcp_servers.\"weird.name\"]\ncommand = \"wn\"\n\n[mcp_servers.weird.name]\ncommand = \"nested\"\n")
	got, err := Delete(doc, servers, "weird.name")
	if err != nil {
		t.Fatal(err)
	}
	want := "[mcp_servers.weird]\ncommand = \"w\"\n\n[mcp_servers.weird.name]\ncommand = \"nested\"\n"
	if string(got) != want {
		t.Errorf("Delete(weird.name):\n got %q\nwant %q", got, want)
	}
	got, err = Delete(doc, servers, "weird")
	if err != nil {
		t.Fatal(err)
	}
	if want := "[mcp_servers.\"weird.name\"]\ncommand = \"wn\"\n"; string(got) != want {
		t.Errorf("Delete(weird):\n got %q\nwant %q", got, want)
	}
}

func TestNewTextUsesTheFileLineEnding(t *testing.T) {
	doc := []byte("model = \"o3\"\r\n")
	got, err := Set(doc, servers, "x", Table{{"command", "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "model = \"o3\"\r\n\r\n[mcp_servers.x]\r\ncommand = \"x\"\r\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
