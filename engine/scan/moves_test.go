package scan_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

var successions = []provider.Succession{{From: "gemini", To: "antigravity"}, {From: "windsurf", To: "devin"}}

// TestMoves: a server the old tool has and its successor lacks at the same
// scope is one move, with the link that keeps both the same; one the
// successor has, under its own or its declared name, or one switched off in
// the old tool, is none.
func TestMoves(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Env.Projects = []string{project}
	m.Write(".gemini/settings.json", `{"mcpServers": {
		"docs":      {"command": "docs-mcp"},
		"shared":    {"command": "npx"},
		"switched":  {"command": "off-mcp"},
		"gh.tools":  {"httpUrl": "https://gh.example/mcp"},
		"chronicle": {"command": "chronicle", "args": ["serve", "--stdio"]},
		"github":    {"command": "npx", "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
		"pasted":    {"command": "db-mcp", "env": {"DB_PASSWORD": "correct-horse-battery"}}
	}}`)
	m.Write(".gemini/mcp-server-enablement.json", `{"switched": {"enabled": false}}`)
	m.Write("work/api/.gemini/settings.json", `{"mcpServers": {"proj-db": {"command": "db-mcp"}}}`)
	m.Write(".gemini/config/mcp_config.json", `{"mcpServers": {"shared": {"command": "npx"}, "gh-tools": {"serverUrl": "https://gh.example/mcp"}}}`)
	m.Write(".codeium/windsurf/mcp_config.json", `{"mcpServers": {"notes": {"serverUrl": "https://notes.example/mcp"},
		"jira": {"serverUrl": "https://jira.example/mcp", "headers": {"Authorization": "Bearer ${env:JIRA_TOKEN}"}}}}`)
	cfg := m.Config(`
service "docs" {
  command = "docs-mcp"
}
service "gh-tools" {
  url    = "https://gh.example/mcp"
  origin = "gemini:user:gh.tools"
}
`)
	r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Config: cfg, Successions: successions})
	var got []string
	for _, mv := range r.Moves {
		got = append(got, mv.From+">"+mv.To+" "+mv.Scope+" "+mv.Name+": "+mv.LinkAt("P"))
	}
	want := []string{
		`gemini>antigravity user chronicle: link { tools = ["gemini", "antigravity"] hub = true }`,
		`gemini>antigravity user docs: link { tools = ["gemini", "antigravity"] services = ["docs"] }`,
		// Antigravity CLI has no syntax for secret references: a link
		// would be a plan error, so the hint gives it the hub.
		`gemini>antigravity user github: link { tools = ["antigravity"] hub = true }`,
		`gemini>antigravity user pasted: link { tools = ["antigravity"] hub = true }`,
		`gemini>antigravity project proj-db: link { tools = ["gemini", "antigravity"] services = ["proj-db"] project = "P" }`,
		`windsurf>devin user jira: link { tools = ["devin"] hub = true }`,
		`windsurf>devin user notes: link { tools = ["windsurf", "devin"] services = ["notes"] }`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("moves:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r.Moves[1].Service != "docs" || r.Moves[4].Service != "" {
		t.Errorf("declared: %+v", r.Moves)
	}
	if r.Moves[2].Cannot != "no syntax for secret references" || r.Moves[1].Cannot != "" {
		t.Errorf("cannot: %+v", r.Moves)
	}

	// scan --json's document carries them, with the link and whether the
	// service is declared.
	b, _ := json.Marshal(scan.NewReport(r))
	var doc struct {
		Moves []struct {
			From, To, Scope, Project, Name, Link string
			Declared                             bool
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Moves) != 7 {
		t.Fatalf("report: %v %s", err, b)
	}
	if mv := doc.Moves[4]; mv.Project != project || mv.Declared || !strings.Contains(mv.Link, `project = "`+project+`"`) {
		t.Errorf("project move: %+v", mv)
	}

	// Only what was scanned is compared: with one side left out, nothing.
	if r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Only: []string{"gemini"}, Successions: successions}); len(r.Moves) != 0 {
		t.Errorf("--tool gemini gave moves %+v", r.Moves)
	}
	// A successor file that cannot be read says nothing about what it has.
	m.Write(".gemini/config/mcp_config.json", `{"mcpServers": {`)
	r = scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Successions: successions})
	for _, mv := range r.Moves {
		if mv.To == "antigravity" {
			t.Fatalf("moves to an unreadable antigravity file: %+v", mv)
		}
	}
	// Without successions, none.
	if r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools}); r.Moves != nil {
		t.Errorf("moves without successions: %+v", r.Moves)
	}
}
