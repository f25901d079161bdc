package jsonfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fixtures = "../../testdata/fixtures"

// fixtureFiles are every JSON and JSONC fixture with the key paths of the
// server maps in it, plus key paths that do not exist yet.
var fixtureFiles = []struct {
	file  string
	paths [][]string
}{
	{"claude-code/home/.claude.json", [][]string{{"mcpServers"}, {"projects", "/home/dev/work/api-server", "mcpServers"}, {"projects", "/home/dev/scratch", "mcpServers"}, {"projects", "/home/dev/new", "mcpServers"}}},
	{"claude-code/project/.mcp.json", [][]string{{"mcpServers"}}},
	{"claude-code/project/.claude/settings.local.json", [][]string{{"mcpServers"}, {"permissions"}}},
	{"claude-desktop/claude_desktop_config.json", [][]string{{"mcpServers"}}},
	{"cursor/home/.cursor/mcp.json", [][]string{{"mcpServers"}}},
	{"cursor/project/.cursor/mcp.json", [][]string{{"mcpServers"}}},
	{"gemini/home/.gemini/settings.json", [][]string{{"mcpServers"}, {"mcp", "servers"}}},
	{"gemini/home/.gemini/mcp-server-enablement.json", [][]string{{"docs-sse"}}},
	{"gemini/project/.gemini/settings.json", [][]string{{"mcpServers"}}},
	{"opencode/home/.config/opencode/opencode.json", [][]string{{"mcp"}}},
	{"opencode/project/opencode.jsonc", [][]string{{"mcp"}}},
	{"vscode/project/.vscode/mcp.json", [][]string{{"servers"}}},
	{"vscode/user/mcp.json", [][]string{{"servers"}}},
	{"windsurf/home/.codeium/windsurf/mcp_config.json", [][]string{{"mcpServers"}}},
	{"zed/home/.config/zed/settings.json", [][]string{{"context_servers"}, {"agent", "servers"}}},
	{"zed/project/.zed/settings.json", [][]string{{"context_servers"}}},
}

const newEntry = `{"command":"npx","args":["-y","x"],"env":{"TOKEN":"${TOKEN}"}}`

func TestSetThenRemoveGivesBackTheFixture(t *testing.T) {
	for _, tc := range fixtureFiles {
		src, err := os.ReadFile(filepath.Join(fixtures, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, kp := range tc.paths {
			t.Run(tc.file+"/"+strings.Join(kp, "."), func(t *testing.T) {
				added, err := set(tc.file, src, kp, "chronicle-new", []byte(newEntry))
				if err != nil {
					t.Fatal(err)
				}
				if err := verify(tc.file, src, added, kp, "chronicle-new", []byte(newEntry)); err != nil {
					t.Fatalf("%v\n%s", err, added)
				}
				back, err := remove(tc.file, added, kp, "chronicle-new")
				if err != nil {
					t.Fatal(err)
				}
				if string(back) != string(src) {
					t.Fatalf("not restored:\n--- got\n%s\n--- want\n%s", back, src)
				}
			})
		}
	}
}

func TestSetAndRemoveLayouts(t *testing.T) {
	tests := []struct {
		name, src string
		keyPath   []string
		added     string // after setting "n" to {"a":1}
	}{
		{"empty object", "{}\n", []string{"s"}, "{\n  \"s\": {\n    \"n\": {\n      \"a\": 1\n    }\n  }\n}\n"},
		{"empty map", "{\n  \"s\": {},\n  \"t\": 1\n}", []string{"s"}, "{\n  \"s\": {\n    \"n\": {\n      \"a\": 1\n    }\n  },\n  \"t\": 1\n}"},
		{"tabs", "{\n\t\"s\": {\n\t\t\"m\": 1\n\t}\n}", []string{"s"}, "{\n\t\"s\": {\n\t\t\"m\": 1,\n\t\t\"n\": {\n\t\t\t\"a\": 1\n\t\t}\n\t}\n}"},
		{"four spaces", "{\n    \"x\": 1\n}", []string{"s"}, "{\n    \"x\": 1,\n    \"s\": {\n        \"n\": {\n            \"a\": 1\n        }\n    }\n}"},
		{"trailing comma and comment", "{\n  \"s\": {\n    \"m\": 1, // note\n  },\n}", []string{"s"}, "{\n  \"s\": {\n    \"m\": 1, // note\n    \"n\": {\n      \"a\": 1\n    },\n  },\n}"},
		{"comment before close", "{\n  \"s\": {\n    \"m\": 1\n    // end\n  }\n}", []string{"s"}, "{\n  \"s\": {\n    \"m\": 1,\n    // end\n    \"n\": {\n      \"a\": 1\n    }\n  }\n}"},
		{"inline, line comment", "{\"s\": {\"m\": 1 // c\n}}", []string{"s"}, "{\"s\": {\"m\": 1, \"n\": {\"a\":1} // c\n}}"},
		{"inline", `{"s": { "m": 1 }}`, []string{"s"}, `{"s": { "m": 1, "n": {"a":1} }}`},
		{"crlf", "{\r\n  \"s\": {\r\n    \"m\": 1\r\n  }\r\n}", []string{"s"}, "{\r\n  \"s\": {\r\n    \"m\": 1,\r\n    \"n\": {\r\n      \"a\": 1\r\n    }\r\n  }\r\n}"},
		{"comment only object", "{\n  \"s\": { // none yet\n  }\n}", []string{"s"}, "{\n  \"s\": { // none yet\n    \"n\": {\n      \"a\": 1\n    }\n  }\n}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			added, err := set("f", []byte(tc.src), tc.keyPath, "n", []byte(`{"a":1}`))
			if err != nil {
				t.Fatal(err)
			}
			if string(added) != tc.added {
				t.Fatalf("set gave\n%q\nwant\n%q", added, tc.added)
			}
			back, err := remove("f", added, tc.keyPath, "n")
			if err != nil {
				t.Fatal(err)
			}
			if string(back) != tc.src {
				t.Fatalf("remove gave\n%q\nwant\n%q", back, tc.src)
			}
		})
	}
}

func TestRemoveNormalisesEmptyObject(t *testing.T) {
	// Documented: an emptied object is written "{}" however it looked.
	src := "{\n  \"a\": 1,\n  \"s\": { \"n\": 2 },\n  \"b\": 2\n}"
	got, err := remove("f", []byte(src), []string{"s"}, "n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": 1,\n  \"s\": {},\n  \"b\": 2\n}"; string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestReplaceTouchesOnlyChangedFields(t *testing.T) {
	src := "{\n  // servers\n  \"s\": {\n    \"x\": {\n      \"command\": \"a\", // keep me\n      \"args\": [\"-y\", \"b\"],\n      \"other\": true\n    }\n  }\n}"
	got, err := set("f", []byte(src), []string{"s"}, "x", []byte(`{"command":"z","args":["-y","b"],"other":true,"env":{"K":"v"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  // servers\n  \"s\": {\n    \"x\": {\n      \"command\": \"z\", // keep me\n      \"args\": [\"-y\", \"b\"],\n      \"other\": true,\n      \"env\": {\n        \"K\": \"v\"\n      }\n    }\n  }\n}"
	if string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	got, err = set("f", got, []string{"s"}, "x", []byte(`{"command":"z","other":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  // servers\n  \"s\": {\n    \"x\": {\n      \"command\": \"z\", // keep me\n      \"other\": true\n    }\n  }\n}"; string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDuplicateNamesAreRefused(t *testing.T) {
	src := []byte(`{"s": {"x": 1, "x": 2}}`)
	if _, err := set("f", src, []string{"s"}, "x", []byte(`3`)); err == nil {
		t.Fatal("set on a duplicated name succeeded")
	}
	if _, err := remove("f", src, []string{"s"}, "x"); err == nil {
		t.Fatal("remove on a duplicated name succeeded")
	}
}

func TestKeyPathThroughNonObject(t *testing.T) {
	_, err := set("f", []byte("{\n  \"s\": [1]\n}"), []string{"s"}, "x", []byte(`1`))
	if err == nil || !strings.Contains(err.Error(), "f:2:8") {
		t.Fatalf("got %v, want an error at f:2:8", err)
	}
}
