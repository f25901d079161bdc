package plan_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"

	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

// TestProfilesAndExposureLifecycle: profiles and the hub's exposure
// settings are state resources, created, updated and deleted like policies.
func TestProfilesAndExposureLifecycle(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(`
service "gh" { command = "gh-mcp" }
hub {
  tools  = "search"
  always = ["gh__get_*"]
}
profile "review" {
  services = ["gh"]
  tools    = ["gh__*pull_request*"]
}
`)
	p := m.Plan(cfg)
	for _, addr := range []string{"hub", "profile.review"} {
		if c := enginetest.Change(t, p, addr); c.Action != plan.Create {
			t.Errorf("%s: %s", addr, c.Action)
		}
	}
	m.Converge(cfg)
	st := m.State()
	if st.Hub.Tools != "search" || strings.Join(st.Hub.Always, ",") != "gh__get_*" || st.Profiles["review"].Tools[0] != "gh__*pull_request*" {
		t.Fatalf("state after apply: hub %+v, profiles %+v", st.Hub, st.Profiles)
	}

	cfg = m.Config(`
service "gh" { command = "gh-mcp" }
hub { tools = "auto" }
profile "review" {
  services = ["gh"]
  exposure = "search"
}
`)
	p = m.Plan(cfg)
	for _, addr := range []string{"hub", "profile.review"} {
		c := enginetest.Change(t, p, addr)
		if c.Action != plan.Update || !strings.Contains(c.Diff, "+") {
			t.Errorf("%s: %s\n%s", addr, c.Action, c.Diff)
		}
	}
	m.Converge(cfg)
	p = m.Plan(m.Config(`service "gh" { command = "gh-mcp" }`))
	for _, addr := range []string{"hub", "profile.review"} {
		if c := enginetest.Change(t, p, addr); c.Action != plan.Delete {
			t.Errorf("%s: %s", addr, c.Action)
		}
	}
}

// hubEntryOf returns the chronicle entry of a cursor mcp.json.
func hubEntryOf(t *testing.T, file string) map[string]any {
	t.Helper()
	var doc struct {
		Servers map[string]map[string]any `json:"mcpServers"`
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return doc.Servers["chronicle"]
}

// TestHubEntryForAProfile: the stdio entry of a link with a profile starts
// chronicle serve --stdio --profile NAME; with transport = "http" at user
// level the entry is the hub's URL, with the token as a reference in the
// tool's own syntax.
func TestHubEntryForAProfile(t *testing.T) {
	m := enginetest.New(t)
	m.Converge(m.Config(`
profile "review" {}
link "agents" {
  tools   = ["cursor"]
  hub     = true
  profile = "review"
}
`))
	e := hubEntryOf(t, m.Path(cursorFile))
	if got := fmt.Sprint(e["args"]); got != "[serve --stdio --profile review]" {
		t.Errorf("stdio entry args: %s", got)
	}
	m.Converge(m.Config(`
profile "review" {}
hub {
  listen = "0.0.0.0:7400"
  token  = secret("env:HUB_TOKEN")
}
link "agents" {
  tools     = ["cursor"]
  hub       = true
  profile   = "review"
  transport = "http"
}
`))
	e = hubEntryOf(t, m.Path(cursorFile))
	if e["url"] != "http://127.0.0.1:7400/mcp/profile/review" || e["command"] != nil {
		t.Errorf("http entry: %v", e)
	}
	if h := fmt.Sprint(e["headers"]); h != "map[Authorization:Bearer ${env:HUB_TOKEN}]" {
		t.Errorf("http entry headers: %s", h)
	}
}

// TestHTTPHubEntryOnlyIntoIgnoredProjectFiles: a project's HTTP hub entry
// carries a personal path and a daemon's URL, so it goes only into a file
// git ignores; into a tracked or not-ignored file the plan writes the stdio
// entry and warns.
func TestHTTPHubEntryOnlyIntoIgnoredProjectFiles(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	repo, err := git.PlainInit(project, false)
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.Config(fmt.Sprintf(`
link "api" {
  tools     = ["cursor"]
  hub       = true
  transport = "http"
  project   = %q
}
`, project))
	addr := `link.api["cursor"].hub`
	file := filepath.Join(project, ".cursor", "mcp.json")
	warning := func(p *plan.Plan) string {
		for _, d := range p.Diagnostics {
			if d.Address == addr && d.Severity == "warning" {
				return d.Detail
			}
		}
		return ""
	}

	// Not ignored: stdio, and the plan says how to get the HTTP entry.
	p := m.Plan(cfg)
	if w := warning(p); !strings.Contains(w, "is not ignored by git") || !strings.Contains(w, ".gitignore") {
		t.Errorf("warning for a file git would take: %q", w)
	}
	m.Converge(cfg)
	if e := hubEntryOf(t, file); e["url"] != nil || e["command"] != enginetest.HubCommand[0] {
		t.Errorf("entry in a file git would take: %v", e)
	}

	// Tracked: stdio still, whatever .gitignore says.
	m.Write("work/api/.gitignore", ".cursor/\n")
	wt, _ := repo.Worktree()
	if _, err := wt.Add(".cursor/mcp.json"); err != nil {
		t.Fatal(err)
	}
	if w := warning(m.Plan(cfg)); !strings.Contains(w, "is tracked by git") {
		t.Errorf("warning for a tracked file: %q", w)
	}

	// Untracked and ignored: the HTTP entry, scoped to the project.
	if _, err := wt.Remove(".cursor/mcp.json"); err != nil {
		t.Fatal(err)
	}
	m.Write("work/api/.cursor/mcp.json", `{"mcpServers": {}}`)
	// Private, as a file that will carry the hub's token must be (else the
	// plan warns: TestHubTokenIntoAReadableFile).
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	p = m.Plan(cfg)
	if w := warning(p); w != "" {
		t.Errorf("warning for an ignored file: %q", w)
	}
	m.Converge(cfg)
	want := "http://127.0.0.1:7311/mcp?root=" + strings.ReplaceAll(project, "/", "%2F")
	if e := hubEntryOf(t, file); e["url"] != want {
		t.Errorf("entry in an ignored file: %v, want url %s", e, want)
	}
}

// TestContextCosts: for each tool a link writes the hub into, the plan says
// what it will see and what it costs, from the catalogue cache, with the
// configuration's policies, scope, profiles and mode; a service the cache
// has not listed makes the count a lower bound, and no cache says nothing
// is known.
func TestContextCosts(t *testing.T) {
	m := enginetest.New(t)
	project := m.Path("work/api")
	m.Write("work/api/README", "the project is on this machine\n")
	cfg := m.Config(fmt.Sprintf(`
service "gh" { command = "gh-mcp" }
service "db" {
  command = "db-mcp"
  project = %q
}
service "new" { command = "new-mcp" }
policy "gh" { disabled_tools = ["delete_*"] }
hub {
  tools  = "auto"
  search_threshold = 500
  always = ["gh__get_*"]
}
profile "review" {
  services = ["gh"]
  tools    = ["gh__*issue*"]
}
link "user" {
  tools = ["claude", "cursor"]
  hub   = true
}
link "api" {
  tools   = ["claude"]
  hub     = true
  project = %q
}
link "reviewers" {
  tools   = ["gemini"]
  hub     = true
  profile = "review"
}
`, project, project))
	cat := &catalog.File{Version: catalog.Version, MetaTokens: 318, Services: map[string]catalog.Listing{
		"gh": {Tools: []catalog.Tool{{Name: "get_me", Tokens: 100}, {Name: "list_issues", Tokens: 200}, {Name: "delete_repo", Tokens: 150}}},
		"db": {Tools: []catalog.Tool{{Name: "query", Tokens: 400}}},
	}}
	costs := func(c *catalog.File) map[string]plan.ContextCost {
		m.Catalog = c
		p := m.Plan(cfg)
		out := map[string]plan.ContextCost{}
		for _, c := range p.Context {
			out[c.Address] = c
		}
		return out
	}
	got := costs(cat)
	user := got[`link.user["claude"].hub`]
	// gh offers get_me and list_issues (300 tokens, under 500: all); new
	// has no listing yet.
	if user.Mode != "all" || user.Tools != 2 || user.Tokens != 300 || user.Known || strings.Join(user.Unlisted, ",") != "new" {
		t.Errorf("user level: %+v", user)
	}
	if got[`link.user["cursor"].hub`].Tokens != 300 {
		t.Errorf("cursor: %+v", got[`link.user["cursor"].hub`])
	}
	// In the project db joins: 700 tokens, above 500: search, with get_me.
	api := got[`link.api["claude"].hub`]
	if api.Mode != "search" || api.Tools != 4 || api.Tokens != 318+100 || api.OfferedTokens != 700 || api.Project != project {
		t.Errorf("project: %+v", api)
	}
	review := got[`link.reviewers["gemini"].hub`]
	if review.Endpoint != "/mcp/profile/review" || review.Tools != 1 || review.Tokens != 200 || !review.Known {
		t.Errorf("profile: %+v", review)
	}
	if none := costs(nil)[`link.user["claude"].hub`]; none.Known || none.Offered != 0 || len(none.Unlisted) != 2 {
		t.Errorf("no cache: %+v", none)
	}
}
