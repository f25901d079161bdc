package apply_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/apply"
	"github.com/chronicle-dev/chronicle/engine/backup"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

const cursorFile = ".cursor/mcp.json"

// everything declares a service written into two tools, two skills linked
// into cursor and copied into claude, and the hub entry in codex.
const everything = `
service "gh" {
  command = "npx"
  args    = ["-y", "server-github"]
}
skill "review" {
  source = "./skills/review"
}
skill "lint" {
  source = "./skills/lint"
}
link "direct" {
  tools    = ["cursor", "codex"]
  services = ["gh"]
}
link "links" {
  tools  = ["cursor"]
  skills = ["*"]
}
link "copies" {
  tools  = ["claude"]
  skills = ["*"]
  mode   = "copy"
}
link "hub" {
  tools = ["codex"]
  hub   = true
}
`

func skills(m *enginetest.Machine) {
	m.Skill("skills", "review", "Review code.")
	m.Skill("skills", "lint", "Lint code.")
}

func TestApplyEveryKindThenRemoveIt(t *testing.T) {
	m := enginetest.New(t)
	skills(m)
	m.Write(cursorFile, "{\n  // the user's comment\n  \"mcpServers\": {\"mine\": {\"command\": \"x\"}}\n}\n")
	cfg := m.Config(everything)
	m.Converge(cfg)

	if target, err := os.Readlink(m.Path(".cursor/skills/review")); err != nil || target != filepath.Join(m.Store, "review") {
		t.Fatalf("link: %q %v", target, err)
	}
	if info, err := os.Lstat(m.Path(".claude/skills/lint")); err != nil || !info.IsDir() {
		t.Fatalf("copy: %v", err)
	}
	cursor := m.Read(m.Path(cursorFile))
	if !strings.Contains(cursor, "the user's comment") || !strings.Contains(cursor, `"mine"`) || !strings.Contains(cursor, `"gh"`) {
		t.Fatalf("cursor's file:\n%s", cursor)
	}
	codex := m.Read(m.Path(".codex/config.toml"))
	if !strings.Contains(codex, "[mcp_servers.gh]") || !strings.Contains(codex, "[mcp_servers.chronicle]") {
		t.Fatalf("codex's file:\n%s", codex)
	}
	st := m.State()
	if len(st.Entries) != 3 || len(st.Links) != 4 || len(st.Skills) != 2 || len(st.Intents) != 0 {
		t.Fatalf("state: %d entries, %d links, %d skills, %d intents", len(st.Entries), len(st.Links), len(st.Skills), len(st.Intents))
	}

	// Everything goes again, leaving what is not chronicle's.
	m.Destroy = true
	m.Converge(m.Config(`
service "other" {
  command = "x"
}
link "o" {
  tools    = ["windsurf"]
  services = ["other"]
}
`))
	cursor = m.Read(m.Path(cursorFile))
	if strings.Contains(cursor, `"gh"`) || !strings.Contains(cursor, `"mine"`) || !strings.Contains(cursor, "the user's comment") {
		t.Fatalf("cursor's file after removal:\n%s", cursor)
	}
	for _, gone := range []string{".cursor/skills/review", ".claude/skills/lint", ".chronicle/skills/review"} {
		if _, err := os.Lstat(m.Path(gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still there", gone)
		}
	}
}

// A target changed between the plan and the "yes": the change fails with a
// message naming the place, nothing there is touched, the changes that
// depend on it are skipped, and the others are made. Saved and interactive
// plans alike.
func TestChangedSinceThePlan(t *testing.T) {
	type intervention struct {
		name   string
		addr   string
		target string // relative to home
		change func(m *enginetest.Machine)
		skips  []string
		// also lists other changes at the same target, which fail alike.
		also []string
	}
	for _, iv := range []intervention{
		{name: "entry appears", addr: `link.direct["cursor"].service.gh`, target: cursorFile, change: func(m *enginetest.Machine) {
			m.Write(cursorFile, `{"mcpServers": {"gh": {"command": "theirs"}}}`)
		}},
		{name: "tool file becomes read-only", addr: `link.direct["codex"].service.gh`, target: ".codex/config.toml", change: func(m *enginetest.Machine) {
			os.Chmod(m.Path(".codex/config.toml"), 0o444)
		}, also: []string{`link.hub["codex"].hub`}},
		{name: "folder appears at a link's place", addr: `link.links["cursor"].skill.review`, target: ".cursor/skills/review", change: func(m *enginetest.Machine) {
			m.Skill(m.Path(".cursor/skills"), "review", "The user's own.")
		}},
		{name: "foreign link appears at a link's place", addr: `link.links["cursor"].skill.lint`, target: ".cursor/skills/lint", change: func(m *enginetest.Machine) {
			os.MkdirAll(m.Path(".cursor/skills"), 0o755)
			os.Symlink("/elsewhere/lint", m.Path(".cursor/skills/lint"))
		}},
		{name: "folder appears at a copy's place", addr: `link.copies["claude"].skill.review`, target: ".claude/skills/review", change: func(m *enginetest.Machine) {
			m.Skill(m.Path(".claude/skills"), "review", "The user's own.")
		}},
		{name: "something appears in the store", addr: "skill.lint", target: ".chronicle/skills/lint", change: func(m *enginetest.Machine) {
			m.Skill(m.Path(".chronicle/skills"), "lint", "Not chronicle's.")
		}, skips: []string{`link.links["cursor"].skill.lint`, `link.copies["claude"].skill.lint`}},
	} {
		for _, saved := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/saved=%v", iv.name, saved), func(t *testing.T) {
				m := enginetest.New(t)
				skills(m)
				m.Write(".codex/config.toml", "# codex\n")
				cfg := m.Config(everything)
				p := m.Plan(cfg)
				if saved {
					p = m.Saved(p)
				}
				iv.change(m)
				target := m.Path(iv.target)
				before := enginetest.Snapshot(t, target)
				beforeMode := mode(target)
				r, err := m.Apply(p)
				if err == nil {
					t.Fatal("apply succeeded over a changed target")
				}
				failed := map[string]string{}
				for _, f := range r.Failed {
					failed[f.Change.Address] = f.Err.Error()
				}
				want := iv.addr + ": " + target + " changed since the plan: "
				if !strings.HasPrefix(failed[iv.addr], want) {
					t.Fatalf("failure of %s: %q, want it to start with %q", iv.addr, failed[iv.addr], want)
				}
				if got := enginetest.Snapshot(t, target); !enginetest.Equal(got, before) || mode(target) != beforeMode {
					t.Fatalf("%s was touched:\n before %v\n after  %v", target, before, got)
				}
				for _, s := range iv.skips {
					if !strings.Contains(failed[s], "skipped") {
						t.Errorf("%s: %q, want it skipped", s, failed[s])
					}
				}
				for _, a := range iv.also {
					if !strings.Contains(failed[a], "changed since the plan") {
						t.Errorf("%s: %q", a, failed[a])
					}
				}
				if len(r.Failed) != 1+len(iv.skips)+len(iv.also) || len(r.Applied) == 0 {
					t.Fatalf("%d failed (%v), %d applied: the other changes must be made", len(r.Failed), failed, len(r.Applied))
				}
				if iv.addr == "skill.lint" {
					if _, err := os.Lstat(m.Path(".cursor/skills/lint")); err == nil {
						t.Fatal("a link to the skill that failed was made")
					}
				}
			})
		}
	}
}

func mode(path string) os.FileMode {
	info, err := os.Lstat(path)
	if err != nil {
		return 0
	}
	return info.Mode()
}

func TestReplaceMovesAsideIntoAKeptSet(t *testing.T) {
	m := enginetest.New(t)
	skills(m)
	cfg := m.Config(everything)
	own := m.Skill(m.Path(".cursor/skills"), "review", "The user's own.")
	addr := `link.links["cursor"].skill.review`
	p := m.Plan(cfg, addr)
	if c := enginetest.Change(t, p, addr); c.Action != plan.Replace {
		t.Fatalf("%s: %s", addr, c.Action)
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if target, _ := os.Readlink(own); target != filepath.Join(m.Store, "review") {
		t.Fatalf("the place holds %q, not the link", target)
	}
	sets, _ := backup.List(fsys.OS{}, m.Chronicle)
	var kept *backup.Set
	for _, s := range sets {
		if s.Kept {
			kept = s
		}
	}
	if kept == nil {
		t.Fatalf("no kept set among %d", len(sets))
	}
	// Five more applies rotate ordinary sets; the kept one stays.
	for i := range backup.Keep + 1 {
		m.Write(cursorFile, fmt.Sprintf(`{"mcpServers": {"n%d": {"command": "x"}}}`, i))
		m.Converge(cfg)
	}
	sets, _ = backup.List(fsys.OS{}, m.Chronicle)
	found := false
	for _, s := range sets {
		found = found || s.ID == kept.ID
	}
	if !found {
		t.Fatal("the set holding the moved folder was rotated away")
	}
	if _, err := backup.Restore(fsys.OS{}, m.Chronicle, kept.ID, kept.Created); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(own, "SKILL.md")); !strings.Contains(string(b), "The user's own.") {
		t.Fatalf("restore did not bring the folder back: %q", b)
	}
}

func TestReadOnlyAndHardLinkedFilesUnderReplace(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(`
service "gh" {
  command = "npx"
}
link "direct" {
  tools    = ["cursor", "windsurf"]
  services = ["gh"]
}
`)
	ro := m.Write(cursorFile, `{"mcpServers": {}}`)
	os.Chmod(ro, 0o444)
	hl := m.Write(".codeium/windsurf/mcp_config.json", `{"mcpServers": {}}`)
	other := m.Path("dotfiles/windsurf.json")
	os.MkdirAll(filepath.Dir(other), 0o755)
	if err := os.Link(hl, other); err != nil {
		t.Fatal(err)
	}
	roAddr, hlAddr := `link.direct["cursor"].service.gh`, `link.direct["windsurf"].service.gh`
	p := m.Plan(cfg)
	if len(p.Conflicts()) != 2 {
		t.Fatalf("want two conflicts:\n%s", enginetest.Describe(p))
	}
	m.Converge(cfg, roAddr, hlAddr)
	if mode(ro).Perm() != 0o444 || !strings.Contains(m.Read(ro), `"gh"`) {
		t.Fatalf("read-only file: mode %v, content %s", mode(ro), m.Read(ro))
	}
	if !strings.Contains(m.Read(other), `"gh"`) {
		t.Fatal("the hard link was split: the other name does not see the write")
	}
}

// The redo path at its narrowest: another program rewrites the file after
// the last read, in a way the stat Install makes just before its exchange
// cannot see (same file, same size, same modification time), so the
// exchange happens and only the bytes it hands back show the write. Both
// that program's version and chronicle's entry survive. (The seam alone:
// safefile's TestInstallFindsARewriteAfterTheExchange.)
func TestConcurrentWriteDuringTheExchange(t *testing.T) {
	m := enginetest.New(t)
	const theirs = `{"mcpServers": {}, "theirs": 1}`
	path := m.Write(cursorFile, theirs)
	cfg := m.Config(`
service "gh" {
  command = "npx"
}
link "direct" {
  tools    = ["cursor"]
  services = ["gh"]
}
`)
	p := m.Plan(cfg)
	installs := 0
	m.System = &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		if op.Name != "Install" || op.Path != path {
			return nil
		}
		installs++
		if installs > 1 {
			return nil
		}
		read, err := os.Stat(path)
		if err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(`{"mcpServers": {}, "theirs": 2}`), 0o644); err != nil {
			return err
		}
		if err := os.Chtimes(path, read.ModTime(), read.ModTime()); err != nil {
			return err
		}
		now, err := os.Stat(path)
		if err != nil {
			return err
		}
		if !os.SameFile(read, now) || now.Size() != read.Size() || !now.ModTime().Equal(read.ModTime()) {
			return fmt.Errorf("the rewrite is visible to a stat (%v, %d bytes, %v): the test would not reach the exchange", os.SameFile(read, now), now.Size(), now.ModTime())
		}
		return nil
	}}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if installs != 2 {
		t.Fatalf("%d installs, want 2: the first finds the other program's version, the second puts the entry onto it", installs)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(m.Read(path)), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["theirs"] != 2.0 || doc["mcpServers"].(map[string]any)["gh"] == nil {
		t.Fatalf("after a concurrent write: %v", doc)
	}
	m.System = fsys.OS{}
	if again := m.Plan(cfg); again.HasChanges() {
		t.Fatalf("not converged:\n%s", enginetest.Describe(again))
	}
}

// A failed install fails every change of that file, records none of them,
// and leaves the file as it was; the next apply makes them.
func TestFailedInstallFailsTheWholeFile(t *testing.T) {
	m := enginetest.New(t)
	path := m.Write(cursorFile, `{"mcpServers": {"old": {"command": "x"}}}`)
	before := m.Read(path)
	cfg := m.Config(`
service "a" {
  command = "a"
}
service "b" {
  command = "b"
}
link "direct" {
  tools    = ["cursor"]
  services = ["a", "b"]
}
`)
	p := m.Plan(cfg)
	m.System = &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		if op.Name == "Install" {
			return fmt.Errorf("disk full")
		}
		return nil
	}}
	r, err := m.Apply(p)
	if err == nil || len(r.Failed) != 2 {
		t.Fatalf("apply: %v, %d failed", err, len(r.Failed))
	}
	if m.Read(path) != before {
		t.Fatal("the file changed")
	}
	if st := m.State(); len(st.Entries) != 0 {
		t.Fatalf("entries recorded: %+v", st.Entries)
	}
	m.System = fsys.OS{}
	m.Converge(cfg)
}

// A skill whose import fails gets no links: nothing dangles.
func TestFailedSkillGetsNoLinks(t *testing.T) {
	m := enginetest.New(t)
	skills(m)
	cfg := m.Config(everything)
	p := m.Plan(cfg)
	m.System = &fsys.Recorder{System: fsys.OS{}, Before: func(op fsys.Op) error {
		if op.Name == "RenameNew" && op.To == filepath.Join(m.Store, "lint") {
			return fmt.Errorf("injected failure")
		}
		return nil
	}}
	r, _ := m.Apply(p)
	failed := map[string]bool{}
	for _, f := range r.Failed {
		failed[f.Change.Address] = true
	}
	for _, addr := range []string{"skill.lint", `link.links["cursor"].skill.lint`, `link.copies["claude"].skill.lint`} {
		if !failed[addr] {
			t.Errorf("%s did not fail", addr)
		}
	}
	if _, err := os.Lstat(m.Path(".cursor/skills/lint")); !os.IsNotExist(err) {
		t.Fatal("a link to a skill that was not imported was made")
	}
	for _, l := range m.State().Links {
		if strings.HasSuffix(l.Address, ".skill.lint") {
			t.Fatalf("the state records a link to a skill that failed: %+v", l)
		}
	}
	if _, err := os.Lstat(m.Path(".cursor/skills/review")); err != nil {
		t.Fatal("the independent link was not made")
	}
}

func TestPlanWithErrorsOrOldFormatIsRefused(t *testing.T) {
	m := enginetest.New(t)
	p := &plan.Plan{Diagnostics: []plan.Diagnostic{{Severity: "error", Summary: "x"}}}
	if _, err := m.Apply(p); err == nil {
		t.Fatal("a plan with errors was applied")
	}
	p = &plan.Plan{Changes: []plan.Change{{Address: "skill.x", Kind: plan.KindSkill, Action: plan.Create, Skill: &plan.SkillSpec{Name: "x"}}}}
	if _, err := m.Apply(p); err == nil || !strings.Contains(err.Error(), "re-run chronicle plan") {
		t.Fatalf("a change without Before: %v", err)
	}
	_ = apply.ErrConflicts
}
