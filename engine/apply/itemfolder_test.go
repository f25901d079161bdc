package apply_test

import (
	"errors"
	"os"
	"testing"

	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// itemFolderConfig links agent reviewer, when declared, to Devin in
// project, which keeps each agent in a folder of its own
// (.devin/agents/NAME/AGENT.md).
func itemFolderConfig(project string, declared bool) string {
	if !declared {
		return `link "p" {
  tools   = ["devin"]
  project = "` + project + `"
  agents  = []
}
`
	}
	return `
agent "reviewer" {
  content     = "You review code."
  description = "Reviews changes"
  tools       = ["Read"]
}
link "p" {
  tools   = ["devin"]
  project = "` + project + `"
  agents  = ["reviewer"]
}
`
}

// An agent whose tool keeps a folder per agent gets its folder with its
// file, recorded as chronicle's creation; removing the agent removes both.
// A folder that was there before, or holds something else by then, stays.
func TestItemFolderComesAndGoesWithItsFile(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write("work/api/README.md", "a project\n")
	file := m.Path("work/api/.devin/agents/reviewer/AGENT.md")
	folder := m.Path("work/api/.devin/agents/reviewer")

	m.Converge(m.Config(itemFolderConfig(project, true)))
	want := "---\nname: reviewer\ndescription: Reviews changes\nallowed-tools: [Read]\n---\n\nYou review code.\n"
	if got := m.Read(file); got != want {
		t.Fatalf("AGENT.md =\n%s\nwant\n%s", got, want)
	}
	if rec := m.State().FileAt(file); rec == nil || rec.Folder != m.Path("work/api/.devin") {
		t.Fatalf("file record = %+v, want .devin recorded as the topmost folder chronicle created", rec)
	}
	m.Converge(m.Config(itemFolderConfig(project, false)))
	// The last item of the folders chronicle created takes them with it;
	// the project, which was there, stays.
	if _, err := os.Stat(m.Path("work/api/.devin")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the folders chronicle created are still there: %v", err)
	}
	if _, err := os.Stat(m.Path("work/api/README.md")); err != nil {
		t.Fatal(err)
	}

	// A folder the user made, holding notes of theirs: the file goes,
	// the folder and the notes stay.
	notes := m.Write("work/api/.devin/agents/reviewer/notes.txt", "mine\n")
	m.Converge(m.Config(itemFolderConfig(project, true)))
	if rec := m.State().FileAt(file); rec == nil || rec.Folder != "" {
		t.Fatalf("file record = %+v, want the folder not recorded as created", rec)
	}
	m.Converge(m.Config(itemFolderConfig(project, false)))
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("AGENT.md is still there: %v", err)
	}
	if got := m.Read(notes); got != "mine\n" {
		t.Fatalf("notes.txt = %q", got)
	}

	// A folder chronicle created, where the user put a file since: the
	// removal, from a saved plan, takes AGENT.md and leaves the folder.
	if err := os.RemoveAll(folder); err != nil {
		t.Fatal(err)
	}
	m.Converge(m.Config(itemFolderConfig(project, true)))
	extra := m.Write("work/api/.devin/agents/reviewer/extra.md", "added later\n")
	p := m.Saved(m.Plan(m.Config(itemFolderConfig(project, false))))
	if c := enginetest.Change(t, p, `link.p["devin"].agent.reviewer`); c.File == nil || c.File.Folder != folder {
		t.Fatalf("the saved removal lost the item folder: %+v", c)
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("AGENT.md is still there: %v", err)
	}
	if got := m.Read(extra); got != "added later\n" {
		t.Fatalf("extra.md = %q", got)
	}
}
