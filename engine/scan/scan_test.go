package scan_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

func TestClassification(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".cursor/mcp.json", `{"mcpServers": {
		"fresh":   {"command": "new-one"},
		"same":    {"command": "npx", "args": ["same"]},
		"mine":    {"command": "edited-here"},
		"theirs":  {"command": "edited-there"},
		"../evil": {"command": "x"}
	}}`)
	m.Write(".codex/config.toml", "[mcp_servers.broken\n")
	m.Skill(m.Path(".cursor/skills"), "notes", "Mine.")
	m.Skill(m.Path(".cursor/skills"), "bad", "x")
	m.Write(".cursor/skills/bad/SKILL.md", "no frontmatter")
	cfg := m.Config(`
service "same" {
  command = "npx"
  args    = ["same"]
}
service "mine" {
  command = "original"
  origin  = "cursor:user"
}
service "theirs" {
  command = "original"
  origin  = "claude:user"
}
`)
	r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Config: cfg, Store: skills.Store{Dir: m.Store}, State: m.State()})
	got := map[string]string{}
	for _, s := range r.Services {
		if s.Location.Tool == "cursor" {
			got[s.Entry.Name] = s.Status
		}
	}
	for name, want := range map[string]string{
		"fresh": scan.StatusNew, "same": scan.StatusUnchanged, "mine": scan.StatusUpdated,
		"theirs": scan.StatusConflict, "../evil": scan.StatusInvalid,
	} {
		if got[name] != want {
			t.Errorf("%s: %s, want %s", name, got[name], want)
		}
	}
	if len(r.Errors) != 1 || r.Errors[0].Tool != "codex" || !strings.Contains(r.Errors[0].Err.Error(), "config.toml") {
		t.Fatalf("errors: %+v", r.Errors)
	}
	skillStatus := map[string]string{}
	for _, k := range r.Skills {
		skillStatus[k.Name] = k.Status
	}
	if skillStatus["notes"] != skills.StatusImportable || skillStatus["bad"] != skills.StatusBroken {
		t.Fatalf("skills: %v", skillStatus)
	}
}

func TestOwnedAndDrift(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(`
service "gh" {
  command = "npx"
}
service "lin" {
  command = "npx"
  args    = ["lin"]
}
link "direct" {
  tools    = ["cursor"]
  services = ["gh", "lin"]
}
`)
	m.Converge(cfg)
	var doc map[string]map[string]map[string]any
	if err := json.Unmarshal([]byte(m.Read(m.Path(".cursor/mcp.json"))), &doc); err != nil {
		t.Fatal(err)
	}
	doc["mcpServers"]["lin"]["args"] = []string{"lin", "--edited"}
	edited, _ := json.Marshal(doc)
	m.Write(".cursor/mcp.json", string(edited))
	r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Config: cfg, Store: skills.Store{Dir: m.Store}, State: m.State(), Only: []string{"cursor"}})
	got := map[string]string{}
	for _, s := range r.Services {
		got[s.Entry.Name] = s.Status
	}
	if got["gh"] != scan.StatusOwned || got["lin"] != scan.StatusDrift {
		t.Fatalf("statuses %v, want gh owned and lin drift", got)
	}
	for _, s := range r.Services {
		if s.Location.Tool != "cursor" {
			t.Fatalf("--tool cursor scanned %s", s.Location.Tool)
		}
	}
	// A plan's scan lists neither owned nor drifted entries (it plans each
	// itself): it does not render their projections to tell them apart.
	r = scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Config: cfg, Store: skills.Store{Dir: m.Store}, State: m.State(), Only: []string{"cursor"}, ManagedUnhashed: true})
	for _, s := range r.Services {
		if s.Status != scan.StatusOwned {
			t.Fatalf("a plan's scan: %s is %s, want owned (not examined)", s.Entry.Name, s.Status)
		}
	}
}

// The report is what scan --json prints and /api/mcp/scan serves: a hostile
// name quoted, a secret masked, every list present, and the hub entries of
// the tools with what they see.
func TestReportAndHubEntries(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".cursor/mcp.json", `{"mcpServers": {
		"../evil":   {"command": "x"},
		"gh":        {"command": "npx", "env": {"GITHUB_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}},
		"chronicle": {"command": "/usr/local/bin/chronicle", "args": ["serve", "--stdio", "--profile", "review"]}
	}}`)
	m.Write(".gemini/settings.json", `{"mcpServers": {
		"chronicle": {"httpUrl": "http://127.0.0.1:7311/mcp/profile/review?root=/work/api"}
	}}`)
	r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Store: skills.Store{Dir: m.Store}, State: m.State()})
	hubs := 0
	for _, s := range r.Services {
		if s.Entry.Name == "chronicle" {
			hubs++
			if s.Sees == nil {
				t.Errorf("%s: the hub entry has no estimate of what it sees", s.Location.Tool)
			}
		} else if s.Sees != nil {
			t.Errorf("%s in %s: an estimate for an entry that is not the hub", s.Entry.Name, s.Location.Tool)
		}
	}
	if hubs != 2 {
		t.Fatalf("%d hub entries found, want cursor's and gemini's", hubs)
	}
	doc, err := json.Marshal(scan.NewReport(r))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	if strings.Contains(text, "ghp_abcdefghijklmnopqrstuvwxyz0123456789") {
		t.Fatalf("the report shows the token: %s", text)
	}
	if !strings.Contains(text, `"name":"\"../evil\""`) {
		t.Fatalf("the hostile name is not quoted: %s", text)
	}
	if !strings.Contains(text, `"errors":[]`) || !strings.Contains(text, `"skills":[]`) {
		t.Fatalf("empty lists are not []: %s", text)
	}
	if scan.ShownName("ok-name") != "ok-name" || scan.ShownName("a/b") != `"a/b"` {
		t.Fatal("ShownName")
	}
}

// TestUntrackedCopyIsNotManaged: a folder of the user's identical to a
// central skill is importable (chronicle did not make it); a copy the
// state records (link mode "copy") is managed.
func TestUntrackedCopyIsNotManaged(t *testing.T) {
	m := enginetest.New(t)
	m.Skill("skills", "review", "Review code.")
	m.Converge(m.Config(`
skill "review" {
  source = "./skills/review"
}
link "cursor" {
  tools  = ["cursor"]
  skills = ["*"]
  mode   = "copy"
}
`))
	// The user's own folder in Claude Code, byte for byte the same.
	m.Skill(m.Path(".claude/skills"), "review", "Review code.")
	r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Store: skills.Store{Dir: m.Store}, State: m.State()})
	status := map[string]string{}
	for _, k := range r.Skills {
		status[k.Tool] = k.Status
	}
	if status["cursor"] != skills.StatusManaged || status["claude"] != skills.StatusImportable {
		t.Fatalf("statuses %v: want cursor's tracked copy managed, claude's own folder importable", status)
	}
}
