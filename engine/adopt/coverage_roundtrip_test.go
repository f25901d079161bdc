package adopt_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/adopt"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// The secrets the tools hold in plain text today: adopt must never copy
// them into the configuration.
const (
	githubToken = "ghp_abcdefghijklmnopqrstuvwxyz012345"
	dbPassword  = "s3cr3t-Pa55word"
	apiKey      = "sk_live_0123456789abcdef0123"
)

// propose runs adopt as `chronicle adopt` does: a scan of the machine,
// the services and skills, their distribution over links, and the rules,
// commands and agents.
func propose(t *testing.T, m *enginetest.Machine, cfg *config.Config, linkSkills, rules bool) (*adopt.Proposal, scan.Result) {
	t.Helper()
	r := scan.Run(scan.Options{Env: m.Env, Tools: m.Tools, Config: cfg, Store: skills.Store{Dir: m.Store}, State: m.State()})
	for _, e := range r.Errors {
		t.Fatalf("scan: %s: %v", e.Tool, e.Err)
	}
	p := adopt.Propose(r, cfg, m.ConfigDir, m.Home)
	tools := map[string]provider.Provider{}
	for _, tool := range m.Tools {
		tools[tool.Name()] = tool
	}
	view := toolfile.NewView(fsys.ReadOnly(fsys.OS{}))
	p.Distribute(r, cfg, adopt.DistributeOptions{
		LinkSkills: linkSkills, Home: m.Home,
		IsHub:  func(e provider.Entry) bool { return e.Command == enginetest.HubCommand[0] },
		Render: func(tool string, e provider.Entry) ([]byte, error) { return tools[tool].Render(e) },
		Refusal: func(loc provider.Location, e provider.Entry) error {
			return plan.Refusal(view, tools[loc.Tool], provider.Edit{Location: loc, Name: e.Name, Entry: &e})
		},
	})
	p.ProposeInstructions(r, cfg, m.ConfigDir, adopt.InstructionOptions{Rules: rules, Home: m.Home})
	return p, r
}

// machineWithEverything writes tool files holding services (one with a
// token in plain text, found in two tools; an HTTP one with credentials in
// its URL; a disabled one), the hub, a skill, a command, an agent, and a
// hand-written AGENTS.md.
func machineWithEverything(t *testing.T) *enginetest.Machine {
	m := enginetest.New(t)
	m.Write(".claude.json", fmt.Sprintf(`{
  "mcpServers": {
    "github": {"command": "npx", "args": ["-y", "gh"], "env": {"GITHUB_TOKEN": %q, "LOG": "debug"}},
    "db": {"type": "http", "url": "https://admin:%s@db.example.com/mcp?api_key=%s&region=eu"},
    "chronicle": {"command": %q, "args": ["serve", "--stdio"]}
  }
}
`, githubToken, dbPassword, apiKey, enginetest.HubCommand[0]))
	m.Write(".cursor/mcp.json", fmt.Sprintf(`{
  "mcpServers": {
    "github": {"command": "npx", "args": ["-y", "gh"], "env": {"GITHUB_TOKEN": %q, "LOG": "debug"}}
  }
}
`, githubToken))
	m.Write(".codex/config.toml", "[mcp_servers.old]\ncommand = \"old-mcp\"\nenabled = false\n")
	m.Skill(m.Path(".claude/skills"), "pdf", "Read PDFs.")
	m.Write(".claude/commands/review.md", "---\ndescription: Review a change\n---\nReview the staged change.\n")
	m.Write(".claude/agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews changes\n---\nYou review code.\n")
	m.Write(".claude/agents/nameless.md", "---\nname: nameless\n---\nNo description.\n")
	m.Write(".codex/AGENTS.md", "# My notes\n\nKeep answers short.\n")
	return m
}

// TestAdoptWritesAConfigurationThatReproducesTheMachine: what adopt writes
// loads, holds no secret in plain text, copies (never moves) the skill and
// the instructions beside it, backs up every file it read from, and the
// first plan over it changes none of the services it linked.
func TestAdoptWritesAConfigurationThatReproducesTheMachine(t *testing.T) {
	m := machineWithEverything(t)
	p, _ := propose(t, m, nil, false, true)
	if p.Empty() {
		t.Fatal("nothing to adopt")
	}
	var svcs []string
	for _, s := range p.Services {
		svcs = append(svcs, s.Name)
	}
	if got := strings.Join(svcs, " "); got != "db github old" {
		t.Fatalf("services %s", got)
	}
	var instrs []string
	for _, in := range p.Instructions {
		instrs = append(instrs, in.Kind+"."+in.Name+"="+in.To)
	}
	if got := strings.Join(instrs, " "); !strings.Contains(got, "command.review=commands/review.md") ||
		!strings.Contains(got, "agent.reviewer=agents/reviewer.md") || !strings.Contains(got, "rule.codex-agents-md=rules/codex-agents-md.md") {
		t.Fatalf("instructions %s", got)
	}
	skipped := fmt.Sprint(p.Skipped)
	if !strings.Contains(skipped, "it has no description, which chronicle's agents need") {
		t.Errorf("an agent without description is not skipped with why: %s", skipped)
	}
	unlinked := fmt.Sprint(p.Unlinked)
	if !strings.Contains(unlinked, `codex user entry "old"`) || !strings.Contains(unlinked, "disabled in codex: a link writes enabled entries only") {
		t.Errorf("a disabled entry is not left unlinked with why: %s", unlinked)
	}

	var hub bool
	for _, l := range p.Links {
		hub = hub || l.Hub
		for _, a := range l.Addresses() {
			if !strings.HasPrefix(a, "link."+l.Name+"[") {
				t.Errorf("link %s has address %s", l.Name, a)
			}
		}
	}
	if !hub {
		t.Errorf("no link keeps the hub entry: %+v", p.Links)
	}

	now := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	out, err := adopt.Write(p, adopt.WriteOptions{ConfigDir: m.ConfigDir, ChronicleHome: m.Chronicle, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if out != filepath.Join(m.ConfigDir, "chronicle.hcl") {
		t.Fatalf("written to %s", out)
	}
	text := m.Read(out)
	for _, leak := range []string{githubToken, dbPassword, apiKey} {
		if strings.Contains(text, leak) {
			t.Fatalf("the configuration holds a secret in plain text (%s):\n%s", leak, text)
		}
	}
	for _, want := range []string{
		"# Adopted by chronicle on 2026-01-02 03:04 UTC.",
		`GITHUB_TOKEN = secret("env:GITHUB_TOKEN")`,
		`# Also in cursor (user scope): ~/.cursor/mcp.json`,
		`"https://admin:${secret("env:DB_PASSWORD")}@db.example.com/mcp?api_key=${secret("env:DB_API_KEY")}&region=eu"`,
		"# Secret: export DB_PASSWORD (its current value is in ~/.claude.json at mcpServers.db.url (the password)).",
		`source = "./skills/pdf"`,
		`source = "./commands/review.md"`,
		`enabled = false`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the configuration lacks %s:\n%s", want, text)
		}
	}
	if got := m.Read(filepath.Join(m.ConfigDir, "commands", "review.md")); !strings.Contains(got, "description: Review a change") || !strings.Contains(got, "Review the staged change.") {
		t.Errorf("the command's copy:\n%s", got)
	}
	if got := m.Read(filepath.Join(m.ConfigDir, "skills", "pdf", "SKILL.md")); !strings.Contains(got, "Read PDFs.") {
		t.Errorf("the skill's copy:\n%s", got)
	}
	if _, err := os.Stat(m.Path(".claude/skills/pdf/SKILL.md")); err != nil {
		t.Errorf("the skill was moved, not copied: %v", err)
	}
	sets, _ := filepath.Glob(filepath.Join(m.Chronicle, "backups", "2026*"))
	if len(sets) != 1 {
		t.Fatalf("backup sets %v", sets)
	}
	backedUp := enginetest.Snapshot(t, sets[0])
	var names []string
	for k := range backedUp {
		names = append(names, k)
	}
	if all := strings.Join(names, " "); !strings.Contains(all, ".claude.json") || !strings.Contains(all, "mcp.json") || !strings.Contains(all, "config.toml") {
		t.Errorf("the backup set holds %s", all)
	}

	// The configuration loads and its first plan changes none of the
	// services the links reproduce.
	m.Env.Getenv = func(k string) (string, bool) {
		v, ok := map[string]string{"GITHUB_TOKEN": githubToken, "DB_PASSWORD": dbPassword, "DB_API_KEY": apiKey}[k]
		return v, ok
	}
	cfg := m.Config(text)
	pl := m.Plan(cfg)
	for _, c := range pl.Changes {
		if strings.Contains(c.Address, ".service.") && c.Action.Changes() {
			t.Errorf("the first plan after adopt changes %s: %s %s", c.Address, c.Action, c.Reason)
		}
	}

	// adopt takes the machine over right after writing, as cmd's takeover
	// does (the links' addresses imported: what is there is recorded);
	// adopting again then adds nothing.
	imports := map[string]bool{}
	for _, l := range p.Links {
		for _, a := range l.Addresses() {
			imports[a] = true
		}
	}
	pl = m.PlanWith(cfg, func(in *plan.Inputs) { in.Import = imports })
	if errs := pl.Errors(); len(errs) > 0 {
		t.Fatalf("the takeover plan: %+v", errs)
	}
	if _, err := m.Apply(pl); err != nil {
		t.Fatal(err)
	}
	if got := m.Read(m.Path(".codex/AGENTS.md")); !strings.Contains(got, "Keep answers short.") {
		t.Fatalf("the hand-written AGENTS.md after the takeover:\n%s", got)
	}
	again, _ := propose(t, m, cfg, false, true)
	if len(again.Services) != 0 || len(again.Skills) != 0 || len(again.Instructions) != 0 {
		t.Fatalf("a second adopt proposes %+v %+v %+v", again.Services, again.Skills, again.Instructions)
	}
}

// TestAdoptLinksSkillsAndKeepsVariantsApart: with LinkSkills the link
// gives each tool the skill its folder held; a server another tool has
// under the same name with other values is a second service named after
// its tool, and says what differs.
func TestAdoptLinksSkillsAndKeepsVariantsApart(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".claude.json", `{"mcpServers": {"search": {"command": "search-mcp", "args": ["--fast"]}}}`)
	m.Write(".cursor/mcp.json", `{"mcpServers": {"search": {"command": "search-mcp", "args": ["--slow"]}}}`)
	m.Skill(m.Path(".claude/skills"), "pdf", "Read PDFs.")
	m.Skill(m.Path(".claude/skills"), "docs", "Write docs.")
	// A skill of that name is beside the configuration already, with
	// other text: the adopted one takes the next free name, and no link
	// gives it to Claude Code, whose folder has it under its old name.
	m.Skill("skills", "pdf", "Another text.")
	p, _ := propose(t, m, nil, true, false)
	var got []string
	for _, s := range p.Services {
		got = append(got, s.Name+": "+s.Differs)
	}
	if len(got) != 2 || got[0] != "search: " || got[1] != "search-cursor: search-cursor differs from search in args" {
		t.Fatalf("services %q", got)
	}
	if len(p.Skills) != 2 || p.Skills[1].Name != "pdf-2" || !p.Skills[1].Renamed || p.Skills[1].To != "skills/pdf-2" || p.Skills[0].Name != "docs" {
		t.Fatalf("skills %+v", p.Skills)
	}
	var skillAddrs []string
	for _, l := range p.Links {
		skillAddrs = append(skillAddrs, l.SkillAddresses()...)
	}
	if got := strings.Join(skillAddrs, " "); got != `link.claude["claude"].skill.docs` {
		t.Fatalf("skill addresses %s", got)
	}
	if _, err := adopt.Write(p, adopt.WriteOptions{ConfigDir: m.ConfigDir, ChronicleHome: m.Chronicle, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	// The copy is renamed: its frontmatter name is its folder's.
	if got := m.Read(filepath.Join(m.ConfigDir, "skills", "pdf-2", "SKILL.md")); !strings.Contains(got, "name: pdf-2") {
		t.Fatalf("the renamed copy:\n%s", got)
	}
	if got := m.Read(filepath.Join(m.ConfigDir, "skills", "pdf", "SKILL.md")); !strings.Contains(got, "Another text.") {
		t.Fatalf("the skill beside the configuration changed:\n%s", got)
	}
	m.Config(m.Read(filepath.Join(m.ConfigDir, "chronicle.hcl")))
}

// TestAdoptLeavesHandWrittenRootFilesWithoutRules: without --rules a
// hand-written AGENTS.md stays the user's, and adopt says so.
func TestAdoptLeavesHandWrittenRootFilesWithoutRules(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".codex/AGENTS.md", "# My notes\n")
	p, _ := propose(t, m, nil, false, false)
	if len(p.Instructions) != 0 {
		t.Fatalf("instructions %+v", p.Instructions)
	}
	if s := fmt.Sprint(p.Skipped); !strings.Contains(s, "written by hand: it stays yours, untouched (adopt --rules") {
		t.Fatalf("skipped %s", s)
	}
	// Nothing to adopt: Write writes nothing.
	out, err := adopt.Write(p, adopt.WriteOptions{ConfigDir: m.ConfigDir, ChronicleHome: m.Chronicle, Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("an empty adopt wrote %s: %v", out, err)
	}
}

// TestAdoptAppendsToTheUsersFile: adopt appends after the user's own
// blocks and keeps them byte for byte.
func TestAdoptAppendsToTheUsersFile(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".claude.json", `{"mcpServers": {"search": {"command": "search-mcp"}}}`)
	mine := "# mine\nservice \"other\" {\n  command = \"other-mcp\"\n}\n\n\n"
	out := filepath.Join(m.ConfigDir, "chronicle.hcl")
	if err := os.WriteFile(out, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := m.Config(mine)
	p, _ := propose(t, m, cfg, false, false)
	if _, err := adopt.Write(p, adopt.WriteOptions{ConfigDir: m.ConfigDir, ChronicleHome: m.Chronicle, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	got := m.Read(out)
	if !strings.HasPrefix(got, strings.TrimRight(mine, "\n")+"\n\n# Adopted by chronicle on ") || !strings.Contains(got, `service "search"`) {
		t.Fatalf("after adopt:\n%s", got)
	}
	m.Config(got)
}

// TestAdoptKeepsKeysTheProviderDoesNotModel: an entry's keys no attribute
// declares go into its tool's target as extra, whatever their JSON type;
// a key that looks secret is not declared at all, and the comment says it
// stays in the tool.
func TestAdoptKeepsKeysTheProviderDoesNotModel(t *testing.T) {
	m := enginetest.New(t)
	m.Write(".cursor/mcp.json", fmt.Sprintf(`{"mcpServers": {"search": {
  "command": "search-mcp",
  "autoApprove": ["read", "list"],
  "opts": {"depth": 2, "fast": true, "ratio": 0.5, "none": [], "empty": {}},
  "apiKey": %q
}}}`, apiKey))
	p, _ := propose(t, m, nil, false, false)
	text := string(p.HCL(""))
	if strings.Contains(text, apiKey) {
		t.Fatalf("a secret in plain text:\n%s", text)
	}
	for _, want := range []string{
		`target "cursor" {`, `autoApprove = ["read", "list"]`, `depth = 2`, `fast  = true`, `ratio = 0.5`, `none  = []`, `empty = {}`,
		`# Not declared: cursor's "apiKey" of entry "search" looks secret; it stays in the tool as it is.`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the block lacks %s:\n%s", want, text)
		}
	}
	m.Config(text)
}
