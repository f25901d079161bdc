package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

const cursorFile = ".cursor/mcp.json"

// oneService links service "gh" into cursor.
const oneService = `
service "gh" {
  command = "npx"
  args    = ["-y", "server-github"]
}
link "direct" {
  tools    = ["cursor"]
  services = ["gh"]
}
`

const ghAddr = `link.direct["cursor"].service.gh`

func TestEntryWhatIsThereNow(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setup   func(m *enginetest.Machine)
		replace bool
		action  plan.Action
		reason  string
		before  string // observe kind
	}{
		{name: "no file", setup: func(*enginetest.Machine) {}, action: plan.Create, before: observe.Absent},
		{name: "file without the entry", setup: func(m *enginetest.Machine) {
			m.Write(cursorFile, `{"mcpServers": {"other": {"command": "x"}}}`)
		}, action: plan.Create, before: observe.Absent},
		{name: "identical entry chronicle did not write", setup: func(m *enginetest.Machine) {
			m.Write(cursorFile, `{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "server-github"]}}}`)
		}, action: plan.Conflict, reason: "identical to the declared one", before: observe.Entry},
		{name: "different entry chronicle did not write", setup: func(m *enginetest.Machine) {
			m.Write(cursorFile, `{"mcpServers": {"gh": {"command": "docker"}}}`)
		}, action: plan.Conflict, reason: "never overwritten", before: observe.Entry},
		{name: "different entry, --replace", setup: func(m *enginetest.Machine) {
			m.Write(cursorFile, `{"mcpServers": {"gh": {"command": "docker"}}}`)
		}, replace: true, action: plan.Update, reason: "--replace takes over", before: observe.Entry},
		{name: "read-only file", setup: func(m *enginetest.Machine) {
			p := m.Write(cursorFile, `{"mcpServers": {}}`)
			os.Chmod(p, 0o444)
		}, action: plan.Conflict, reason: "read-only (mode 0444)", before: observe.Absent},
		{name: "read-only file, --replace", setup: func(m *enginetest.Machine) {
			p := m.Write(cursorFile, `{"mcpServers": {}}`)
			os.Chmod(p, 0o444)
		}, replace: true, action: plan.Create, before: observe.Absent},
		{name: "hard-linked file", setup: func(m *enginetest.Machine) {
			p := m.Write(cursorFile, `{"mcpServers": {}}`)
			os.Link(p, m.Path("dotfiles-mcp.json"))
		}, action: plan.Conflict, reason: "hard-linked, 2 links", before: observe.Absent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := enginetest.New(t)
			tc.setup(m)
			var replace []string
			if tc.replace {
				replace = []string{ghAddr}
			}
			p := m.Plan(m.Config(oneService), replace...)
			if errs := p.Errors(); len(errs) > 0 {
				t.Fatalf("errors: %s", enginetest.Describe(p))
			}
			c := enginetest.Change(t, p, ghAddr)
			if c.Action != tc.action || !strings.Contains(c.Reason, tc.reason) {
				t.Fatalf("got %s %q, want %s containing %q", c.Action, c.Reason, tc.action, tc.reason)
			}
			if c.Before == nil || c.Before.Kind != tc.before || c.Before.File == nil {
				t.Fatalf("Before = %+v, want kind %s with the file's facts", c.Before, tc.before)
			}
		})
	}
}

func TestEntryOwnedByChronicle(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(oneService)
	m.Converge(cfg)
	// Edited by the user since: drift, never overwritten.
	m.Write(cursorFile, `{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "server-github", "--edited"]}}}`)
	c := enginetest.Change(t, m.Plan(cfg), ghAddr)
	if c.Action != plan.Conflict || !strings.Contains(c.Reason, "drift") || c.Diff == "" {
		t.Fatalf("edited entry: %s %q (diff %q)", c.Action, c.Reason, c.Diff)
	}
	if c := enginetest.Change(t, m.Plan(cfg, ghAddr), ghAddr); c.Action != plan.Update {
		t.Fatalf("edited entry with --replace: %s", c.Action)
	}
	// The declaration changes: an update with a diff.
	cfg2 := m.Config(strings.Replace(oneService, `"server-github"]`, `"server-github", "--v2"]`, 1))
	m.Write(cursorFile, `{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "server-github"]}}}`)
	c = enginetest.Change(t, m.Plan(cfg2), ghAddr)
	if c.Action != plan.Update || !strings.Contains(c.Diff, "--v2") {
		t.Fatalf("changed declaration: %s diff %q", c.Action, c.Diff)
	}
}

func TestUnparsableFileIsAnError(t *testing.T) {
	m := enginetest.New(t)
	m.Write(cursorFile, `{"mcpServers": {"gh": `)
	p := m.Plan(m.Config(oneService))
	if len(p.Errors()) != 1 || !strings.Contains(p.Errors()[0].Detail, cursorFile) {
		t.Fatalf("errors %+v, want one naming the file", p.Errors())
	}
	if p.Has(ghAddr) {
		t.Fatal("a change into a file that does not parse is planned")
	}
}

func TestDuplicateKeysAreAnErrorNotAChange(t *testing.T) {
	m := enginetest.New(t)
	m.Write(cursorFile, `{"mcpServers": {"gh": {"command": "a"}, "other": {"command": "b"}, "gh": {"command": "docker"}}}`)
	p := m.Plan(m.Config(oneService), ghAddr)
	if p.Has(ghAddr) || len(p.Errors()) == 0 {
		t.Fatalf("duplicate keys: the plan promises a change apply would refuse:\n%s", enginetest.Describe(p))
	}
}

func TestCodexInlineTableIsAnErrorNotAChange(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".codex/config.toml", "[mcp_servers]\ngh = { command = \"docker\" }\n")
	cfg := m.Config(`
service "gh" {
  command = "npx"
}
link "direct" {
  tools    = ["codex"]
  services = ["gh"]
}
`)
	addr := `link.direct["codex"].service.gh`
	p := m.Plan(cfg, addr)
	if p.Has(addr) || len(p.Errors()) == 0 {
		t.Fatalf("inline table: the plan promises a change apply would refuse:\n%s", enginetest.Describe(p))
	}
}

const oneSkill = `
skill "review" {
  source = "./skills/review"
}
link "everywhere" {
  tools  = ["cursor"]
  skills = ["*"]
  MODE
}
`

func skillConfig(m *enginetest.Machine, mode string) string {
	m.Skill("skills", "review", "Review code.")
	return strings.Replace(oneSkill, "MODE", mode, 1)
}

const reviewLink = `link.everywhere["cursor"].skill.review`

func TestSymlinkWhatIsThereNow(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setup   func(m *enginetest.Machine, place string)
		replace bool
		action  plan.Action
		reason  string
		before  string
	}{
		{name: "nothing", setup: func(*enginetest.Machine, string) {}, action: plan.Create, before: observe.Absent},
		{name: "a foreign link", setup: func(m *enginetest.Machine, place string) {
			os.MkdirAll(filepath.Dir(place), 0o755)
			os.Symlink("/elsewhere/review", place)
		}, action: plan.Conflict, reason: "a link to /elsewhere/review", before: observe.Symlink},
		{name: "a foreign link, --replace", setup: func(m *enginetest.Machine, place string) {
			os.MkdirAll(filepath.Dir(place), 0o755)
			os.Symlink("/elsewhere/review", place)
		}, replace: true, action: plan.Replace, before: observe.Symlink},
		{name: "a real folder", setup: func(m *enginetest.Machine, place string) {
			m.Skill(filepath.Dir(place), "review", "The user's own.")
		}, action: plan.Conflict, reason: "a real directory", before: observe.Dir},
		{name: "a real folder with the declared content", setup: func(m *enginetest.Machine, place string) {
			m.Skill(filepath.Dir(place), "review", "Review code.")
		}, action: plan.Conflict, reason: "adopt may have copied it", before: observe.Dir},
		{name: "a file", setup: func(m *enginetest.Machine, place string) {
			m.Write(".cursor/skills/review", "not a folder")
		}, action: plan.Conflict, reason: "a file is at", before: observe.File},
		{name: "the central link chronicle did not make", setup: func(m *enginetest.Machine, place string) {
			os.MkdirAll(filepath.Dir(place), 0o755)
			os.Symlink(filepath.Join(m.Store, "review"), place)
		}, action: plan.Conflict, reason: "identical to the declared one, but chronicle did not write it", before: observe.Symlink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := enginetest.New(t)
			cfg := m.Config(skillConfig(m, ""))
			place := m.Path(".cursor/skills/review")
			tc.setup(m, place)
			var replace []string
			if tc.replace {
				replace = []string{reviewLink}
			}
			c := enginetest.Change(t, m.Plan(cfg, replace...), reviewLink)
			if c.Action != tc.action || !strings.Contains(c.Reason, tc.reason) {
				t.Fatalf("got %s %q, want %s containing %q", c.Action, c.Reason, tc.action, tc.reason)
			}
			if c.Before == nil || c.Before.Kind != tc.before {
				t.Fatalf("Before = %+v, want %s", c.Before, tc.before)
			}
		})
	}
}

func TestCopyWhatIsThereNow(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(skillConfig(m, `mode = "copy"`))
	place := m.Path(".cursor/skills/review")

	// A folder that is not chronicle's copy is never adopted.
	m.Skill(filepath.Dir(place), "review", "The user's own.")
	c := enginetest.Change(t, m.Plan(cfg), reviewLink)
	if c.Action != plan.Conflict || c.Before.Kind != observe.Dir || c.Before.Hash == "" {
		t.Fatalf("foreign folder: %s %q Before %+v", c.Action, c.Reason, c.Before)
	}
	// An identical one neither.
	os.RemoveAll(place)
	m.Skill(filepath.Dir(place), "review", "Review code.")
	if c := enginetest.Change(t, m.Plan(cfg), reviewLink); c.Action != plan.Conflict || !strings.Contains(c.Reason, "identical to the declared one") {
		t.Fatalf("identical folder: %s %q", c.Action, c.Reason)
	}
	os.RemoveAll(place)

	m.Converge(cfg)
	if info, err := os.Lstat(place); err != nil || !info.IsDir() {
		t.Fatalf("the copy is not a real folder: %v", err)
	}
	// The user edits the copy: drift.
	os.WriteFile(filepath.Join(place, "notes.md"), []byte("mine"), 0o644)
	if c := enginetest.Change(t, m.Plan(cfg), reviewLink); c.Action != plan.Conflict || !strings.Contains(c.Reason, "drift") {
		t.Fatalf("edited copy: %s %q", c.Action, c.Reason)
	}
	os.Remove(filepath.Join(place, "notes.md"))
	// The skill changes: the copy is refreshed.
	m.Skill("skills", "review", "Review code, version 2.")
	c = enginetest.Change(t, m.Plan(cfg), reviewLink)
	if c.Action != plan.Update || !strings.Contains(c.Reason, "the declared version changed since chronicle wrote it") {
		t.Fatalf("changed skill: %s %q", c.Action, c.Reason)
	}
}

func TestSkillWhatIsThereNow(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(skillConfig(m, ""))
	central := filepath.Join(m.Store, "review")
	c := enginetest.Change(t, m.Plan(cfg), "skill.review")
	if c.Action != plan.Create || c.Before.Kind != observe.Absent || c.Skill.Hash == "" {
		t.Fatalf("new skill: %s Before %+v", c.Action, c.Before)
	}
	m.Converge(cfg)
	// Edited in place: drift.
	os.WriteFile(filepath.Join(central, "SKILL.md"), []byte("---\nname: review\ndescription: x\n---\nedited\n"), 0o644)
	c = enginetest.Change(t, m.Plan(cfg), "skill.review")
	if c.Action != plan.Conflict || !strings.Contains(c.Diff, "edited") {
		t.Fatalf("edited central copy: %s diff %q", c.Action, c.Diff)
	}
	if c := enginetest.Change(t, m.Plan(cfg, "skill.review"), "skill.review"); c.Action != plan.Replace {
		t.Fatalf("edited central copy with --replace: %s", c.Action)
	}
	// A file where the store expects a folder.
	os.RemoveAll(central)
	os.WriteFile(central, []byte("x"), 0o644)
	if c := enginetest.Change(t, m.Plan(cfg), "skill.review"); c.Action != plan.Conflict || c.Before.Kind != observe.File {
		t.Fatalf("a file in the store: %s %+v", c.Action, c.Before)
	}
}

func TestRemovalsTakeOnlyWhatChronicleMade(t *testing.T) {
	m := enginetest.New(t)
	m.Skill("skills", "review", "Review code.")
	m.Skill("skills", "lint", "Lint code.")
	full := m.Config(`
service "gh" {
  command = "npx"
}
skill "review" {
  source = "./skills/review"
}
skill "lint" {
  source = "./skills/lint"
}
link "all" {
  tools    = ["cursor"]
  services = ["gh"]
  skills   = ["*"]
}
link "copies" {
  tools  = ["claude"]
  skills = ["*"]
  mode   = "copy"
}
`)
	m.Converge(full)
	// The user changes some of what chronicle made.
	os.Remove(m.Path(".cursor/skills/lint"))
	os.Symlink("/elsewhere", m.Path(".cursor/skills/lint"))
	os.WriteFile(m.Path(".claude/skills/lint/extra.md"), []byte("mine"), 0o644)
	keep := m.Config(`
service "keep" {
  command = "x"
}
link "k" {
  tools    = ["cursor"]
  services = ["keep"]
}
`)
	p := m.Plan(keep)
	for addr, want := range map[string]plan.Action{
		`link.all["cursor"].service.gh`:      plan.Delete,
		`link.all["cursor"].skill.review`:    plan.Delete,
		`link.all["cursor"].skill.lint`:      plan.Conflict,
		`link.copies["claude"].skill.review`: plan.Delete,
		`link.copies["claude"].skill.lint`:   plan.Conflict,
		"skill.review":                       plan.Delete,
		"skill.lint":                         plan.Delete,
		"service.gh":                         plan.Delete,
	} {
		c := enginetest.Change(t, p, addr)
		if c.Action != want {
			t.Errorf("%s: %s %q, want %s", addr, c.Action, c.Reason, want)
		}
		if c.Kind != plan.KindService && c.Before == nil {
			t.Errorf("%s: no Before", addr)
		}
	}
}

func TestEveryMachineChangeRecordsBefore(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(skillConfig(m, "hub = true"))
	p := m.Plan(cfg)
	n := 0
	for _, c := range p.Changes {
		switch c.Kind {
		case plan.KindSkill, plan.KindLink, plan.KindEntry:
			n++
			if c.Before == nil {
				t.Errorf("%s has no Before", c.Address)
			}
		}
	}
	if n != 3 {
		t.Fatalf("%d machine changes, want skill, link and hub entry:\n%s", n, enginetest.Describe(p))
	}
}

func TestSavedPlans(t *testing.T) {
	m := enginetest.New(t)
	m.Write(cursorFile, `{"mcpServers": {"gh": `)
	bad := m.Plan(m.Config(oneService))
	path := filepath.Join(t.TempDir(), "p.plan")
	if err := bad.Save(fsys.OS{}, path); err != plan.ErrNotSaved {
		t.Fatalf("a plan with errors was saved: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("a plan with errors left a file")
	}
	old := filepath.Join(t.TempDir(), "old.plan")
	os.WriteFile(old, []byte(`{"plan_format": 1, "changes": []}`), 0o600)
	if _, err := plan.Load(fsys.OS{}, old); err == nil || !strings.Contains(err.Error(), "re-run chronicle plan") {
		t.Fatalf("a format-1 plan: %v", err)
	}
	os.Remove(m.Path(cursorFile))
	good := m.Plan(m.Config(oneService))
	q := m.Saved(good)
	c := enginetest.Change(t, q, ghAddr)
	if c.Before == nil || c.Before.Kind != observe.Absent {
		t.Fatalf("Before lost in the saved plan: %+v", c.Before)
	}
	st := m.State()
	st.Serial = 7
	if err := q.CheckState(st); err == nil {
		t.Fatal("a plan made against serial 0 accepted against serial 7")
	}
}

func TestWarnings(t *testing.T) {
	m := enginetest.New(t)
	p := m.Plan(m.Config(oneService), "link.nothing[\"x\"].skill.y")
	var offline, nothing bool
	for _, d := range p.Diagnostics {
		offline = offline || d.Summary == "Offline"
		nothing = nothing || strings.HasPrefix(d.Summary, "Nothing to replace")
	}
	if !offline || !nothing {
		t.Fatalf("warnings:\n%s", enginetest.Describe(p))
	}
}

func TestUnmanagedIsListedNotChanged(t *testing.T) {
	m := enginetest.New(t)
	m.Write(cursorFile, `{"mcpServers": {"mine": {"command": "x"}}}`)
	m.Skill(m.Path(".cursor/skills"), "notes", "Mine.")
	p := m.Plan(m.Config(oneService))
	var services, skills int
	for _, u := range p.Unmanaged {
		switch {
		case u.Kind == "service" && u.Name == "mine":
			services++
		case u.Kind == "skill" && u.Name == "notes":
			skills++
		}
	}
	if services != 1 || skills != 1 || p.Has("mine") {
		t.Fatalf("unmanaged %+v", p.Unmanaged)
	}
}

func TestInterruptedWriteIsRecognised(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(oneService)
	m.Write(cursorFile, `{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "server-github"]}}}`)
	st := m.State()
	loc := enginetest.Change(t, m.Plan(cfg), ghAddr).Entry.Location
	if err := st.Journal(state.Intent{Address: ghAddr, Action: "create", File: loc.File, KeyPath: loc.KeyPath, Name: "gh"}); err != nil {
		t.Fatal(err)
	}
	c := enginetest.Change(t, m.Plan(cfg), ghAddr)
	if c.Action != plan.Update || !strings.Contains(c.Reason, "interrupted apply") {
		t.Fatalf("a journalled write found identical: %s %q", c.Action, c.Reason)
	}
}

// A source imported as it is now is not checked again (its SKILL.md is
// hashed, not read and parsed); one that changed since is, and a name that no longer matches
// is an error of the plan.
func TestImportedSourceIsCheckedAgainWhenItChanges(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(skillConfig(m, ""))
	m.Converge(cfg)
	manifest := filepath.Join(m.ConfigDir, "skills", "review", "SKILL.md")

	rec := &fsys.Recorder{System: fsys.OS{}}
	if p := m.PlanWith(cfg, func(in *plan.Inputs) { in.Reader = fsys.ReadOnly(rec) }); p.HasChanges() {
		t.Fatalf("a plan after apply: %s", enginetest.Describe(p))
	}
	for _, op := range rec.Ops() {
		if op.Path == manifest && op.Name == "ReadFile" {
			t.Fatalf("the manifest of the unchanged source was read to be checked again")
		}
	}

	os.WriteFile(manifest, []byte("---\nname: other\ndescription: x\n---\nbody\n"), 0o644)
	p := m.Plan(cfg)
	errs := p.Errors()
	if len(errs) != 1 || errs[0].Address != "skill.review" || !strings.Contains(errs[0].Detail, `is "other", not "review"`) {
		t.Fatalf("a source renamed in its frontmatter: %+v\n%s", errs, enginetest.Describe(p))
	}
}
