package scan_test

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// A project's .agents/skills is read by codex, agents, goose, amp and
// Antigravity and scanned once, under the first of them (codex). A
// NAME.md there is Antigravity's single-file skill whichever tool scans
// the folder; a plugin's servers and skills are listed read only, and its
// file under "Tool files".
func TestSingleFileSkillsAndPlugins(t *testing.T) {
	m := enginetest.New(t)
	m.Env.Projects = []string{m.Path("work/api")}
	m.Write("work/api/.agents/skills/format-tests.md", "---\nname: format-tests\ndescription: Standardize and re-format Python unittest assertions\n---\n")
	m.Skill(m.Path("work/api/.agents/skills"), "folder", "A folder skill.")
	m.Write(".gemini/antigravity-cli/plugins/my-plugin/plugin.json", `{"name": "my-plugin"}`)
	m.Write(".gemini/antigravity-cli/plugins/my-plugin/mcp_config.json", `{"mcpServers": {"firebase": {"command": "npx", "args": ["-y", "firebase-tools@latest", "mcp"]}}}`)
	m.Write(".gemini/antigravity-cli/plugins/my-plugin/skills/release-notes.md", "---\nname: release-notes\ndescription: Draft release notes\n---\n")

	for _, only := range [][]string{nil, {"codex"}} {
		r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Only: only, Store: skills.Store{Dir: m.Store}})
		var single *skills.Found
		for i, k := range r.Skills {
			if k.Dir == m.Path("work/api/.agents/skills") && k.Name == "format-tests" {
				single = &r.Skills[i]
			}
			if strings.HasSuffix(k.Name, ".md") {
				t.Errorf("only %v: %s listed as a folder: %s %s", only, k.Path, k.Status, k.Reason)
			}
		}
		if single == nil || single.Status != skills.StatusSingleFile || single.Tool != "codex" {
			t.Fatalf("only %v: format-tests.md: %+v in %+v", only, single, r.Skills)
		}
	}

	r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Only: []string{"antigravity"}, Store: skills.Store{Dir: m.Store}})
	var plugin *skills.Found
	for i, k := range r.Skills {
		if k.Name == "release-notes" {
			plugin = &r.Skills[i]
		}
	}
	if plugin == nil || !plugin.ReadOnly || plugin.Status != skills.StatusSingleFile || !strings.Contains(plugin.Note, "my-plugin") {
		t.Fatalf("plugin skill: %+v", plugin)
	}
	var server *scan.Service
	for i, s := range r.Services {
		if s.Entry.Name == "firebase" {
			server = &r.Services[i]
		}
	}
	if server == nil || !server.Location.ReadOnly || server.Status != scan.StatusNew {
		t.Fatalf("plugin server: %+v", server)
	}
	if len(r.Files) != 1 || r.Files[0].Path != m.Path(".gemini/antigravity-cli/plugins/my-plugin/mcp_config.json") || !r.Files[0].ReadOnly {
		t.Fatalf("tool files: %+v", r.Files)
	}
	rep := scan.NewReport(r)
	for _, k := range rep.Skills {
		if k.Name == "release-notes" && (!k.ReadOnly || k.Path != m.Path(".gemini/antigravity-cli/plugins/my-plugin/skills/release-notes.md")) {
			t.Fatalf("report: %+v", k)
		}
	}
}
