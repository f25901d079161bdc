package plan_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/hubtoken"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/internal/enginetest"
)

const httpLink = `
link "agents" {
  tools     = ["cursor"]
  hub       = true
  transport = "http"
}
`

// TestHTTPHubEntryCarriesTheHubToken: without hub { token }, an HTTP hub
// entry carries ~/.chronicle/hub.token as a bearer header. The plan never
// makes the file and says apply will; apply makes it and writes its
// content into the tool's file; the plan and the state hold only the
// reference. A new token makes the entry an update with the reason, so a
// sync repairs it.
func TestHTTPHubEntryCarriesTheHubToken(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(httpLink)
	tokenFile := hubtoken.Path(m.Chronicle)
	addr := `link.agents["cursor"].hub`

	p := m.Plan(cfg)
	c := enginetest.Change(t, p, addr)
	if c.Action != plan.Create || !strings.Contains(c.Reason, "made at apply") || c.Entry.HubToken != tokenFile {
		t.Fatalf("the first plan: %s %q (token file %q)", c.Action, c.Reason, c.Entry.HubToken)
	}
	if _, err := os.Stat(tokenFile); !os.IsNotExist(err) {
		t.Fatalf("the plan made the token file: %v", err)
	}
	if got := c.Entry.Entry.Definition.Headers["Authorization"].HCL(); got != `Bearer ${secret("file:`+tokenFile+`")}` {
		t.Errorf("the header in the plan: %s", got)
	}
	if _, err := m.Apply(m.Saved(p)); err != nil {
		t.Fatal(err)
	}
	tok, err := hubtoken.Read(fsys.OS{}, tokenFile)
	if err != nil {
		t.Fatalf("apply made no token: %v", err)
	}
	e := hubEntryOf(t, m.Path(cursorFile))
	if h := e["headers"].(map[string]any)["Authorization"]; h != "Bearer "+tok {
		t.Errorf("the header in the tool's file: %v", h)
	}
	if again := m.Plan(cfg); again.HasChanges() {
		t.Fatalf("a plan after apply: %s", enginetest.Describe(again))
	}
	stateFile := filepath.Join(m.Chronicle, "state.json")
	if b, _ := os.ReadFile(stateFile); strings.Contains(string(b), tok) {
		t.Error("the state holds the token in plain text")
	}

	// A new token (the file deleted and made again): the entry is stale.
	fresh := hubtoken.New()
	if err := os.WriteFile(tokenFile, []byte(fresh+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p = m.Plan(cfg)
	c = enginetest.Change(t, p, addr)
	if c.Action != plan.Update || !strings.Contains(c.Reason, "does not carry the hub's token") {
		t.Fatalf("after a new token: %s %q", c.Action, c.Reason)
	}
	saved := filepath.Join(t.TempDir(), "p.plan")
	if err := p.Save(fsys.OS{}, saved); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(saved)
	pj, _ := json.Marshal(p)
	for _, s := range []string{string(b), string(pj), enginetest.Describe(p), c.Diff} {
		if strings.Contains(s, tok) || strings.Contains(s, fresh) {
			t.Fatalf("the plan shows a token in plain text: %s", s)
		}
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if h := hubEntryOf(t, m.Path(cursorFile))["headers"].(map[string]any)["Authorization"]; h != "Bearer "+fresh {
		t.Errorf("after apply, the header: %v", h)
	}
	if again := m.Plan(cfg); again.HasChanges() {
		t.Fatalf("a plan after the repair: %s", enginetest.Describe(again))
	}
}

// TestLocalClientsOpen: hub { local_clients = "open" } writes no token
// into the HTTP hub entry, records the setting for the hub, and every plan
// warns.
func TestLocalClientsOpen(t *testing.T) {
	m := enginetest.New(t)
	cfg := m.Config(`
hub {
  local_clients = "open"
}
` + httpLink)
	p := m.Plan(cfg)
	if c := enginetest.Change(t, p, "hub"); c.Hub == nil || c.Hub.LocalClients != "open" {
		t.Fatalf("the hub's record: %+v", c.Hub)
	}
	warned := func(p *plan.Plan) bool {
		for _, d := range p.Diagnostics {
			if d.Severity == "warning" && strings.Contains(d.Summary, "open to every local process") {
				return true
			}
		}
		return false
	}
	if !warned(p) {
		t.Errorf("no warning: %s", enginetest.Describe(p))
	}
	if _, err := m.Apply(p); err != nil {
		t.Fatal(err)
	}
	if e := hubEntryOf(t, m.Path(cursorFile)); e["headers"] != nil {
		t.Errorf("an open hub's entry carries headers: %v", e["headers"])
	}
	if _, err := os.Stat(hubtoken.Path(m.Chronicle)); !os.IsNotExist(err) {
		t.Errorf("apply made a token no entry needs: %v", err)
	}
	if !warned(m.Plan(cfg)) {
		t.Error("the next plan does not warn")
	}
}
