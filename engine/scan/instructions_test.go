package scan_test

import (
	"testing"

	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// An agent kept in a folder of its own (Devin's .devin/agents/NAME/AGENT.md)
// is listed under the folder's name; a folder without the file, and a
// loose file beside the folders, are no agents.
func TestItemFoldersAreListedByName(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write("work/api/.devin/agents/reviewer/AGENT.md", "---\nname: reviewer\ndescription: Reviews\n---\n\nYou review.\n")
	m.Write("work/api/.devin/agents/empty/notes.txt", "no agent here\n")
	m.Write("work/api/.devin/agents/loose.md", "not in a folder\n")
	env := m.Env
	env.Projects = []string{project}
	r := scan.Run(scan.Options{Env: env, Tools: m.Tools, Store: skills.Store{Dir: m.Store}, State: m.State()})
	var names []string
	for _, in := range r.Instructions {
		if in.Tool == "devin" && in.Kind == "agent" {
			names = append(names, in.Name)
			if in.Path != m.Path("work/api/.devin/agents/reviewer/AGENT.md") || in.Found.Description != "Reviews" || in.Status != scan.StatusNew {
				t.Errorf("listed %+v", in)
			}
		}
	}
	if len(names) != 1 || names[0] != "reviewer" {
		t.Fatalf("devin agents = %v, want [reviewer]", names)
	}
}

// A folder named like a root file a tool reads (Cline's .clinerules/
// folder, a file name in Zed's list) is skipped: the next file of the
// list is the tool's, and scanning reports no error.
func TestFolderWhereARootFileWouldBeIsSkipped(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write("work/api/.clinerules/go.md", "Use gofmt.\n")
	m.Write("work/api/AGENT.md", "Notes of mine.\n")
	env := m.Env
	env.Projects = []string{project}
	r := scan.Run(scan.Options{Env: env, Tools: m.Tools, Store: skills.Store{Dir: m.Store}, State: m.State()})
	for _, e := range r.Errors {
		t.Errorf("scan error: %s %s: %v", e.Tool, e.File, e.Err)
	}
	found := false
	for _, in := range r.Instructions {
		if in.Root && in.Path == m.Path("work/api/AGENT.md") {
			found = true
			if in.Tool != "zed" {
				t.Errorf("AGENT.md listed under %s, want zed first", in.Tool)
			}
		}
	}
	if !found {
		t.Fatalf("zed's AGENT.md is not listed: %+v", r.Instructions)
	}
}

// A file in a folder two tools read (VS Code's and Copilot CLI's
// ~/.copilot/agents) is listed once, with the second tool in SharedWith.
func TestFileInASharedFolderIsListedOnce(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".copilot/agents/writer.agent.md", "---\nname: writer\ndescription: Writes\n---\n\nYou write.\n")
	r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Store: skills.Store{Dir: m.Store}, State: m.State()})
	var listed []scan.Instruction
	for _, in := range r.Instructions {
		if in.Path == m.Path(".copilot/agents/writer.agent.md") {
			listed = append(listed, in)
		}
	}
	if len(listed) != 1 || listed[0].Tool != "vscode" || len(listed[0].SharedWith) != 1 || listed[0].SharedWith[0] != "copilot" {
		t.Fatalf("writer.agent.md listed as %+v, want once under vscode, shared with copilot", listed)
	}
}
