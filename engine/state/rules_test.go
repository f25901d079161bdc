package state

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A permission rule is recorded as a "rule" record, read back as it was,
// listed, described and forgotten by its address.
func TestRuleRecordRoundTrip(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	addr := `link.p["devin"].service.db.deny["drop_table"]`
	keyPath := []string{"permissions", "deny"}
	s := New()
	s.SetRule(Rule{Address: addr, Tool: "devin", Scope: "project", Project: "/p", File: "/p/.devin/config.json", KeyPath: keyPath, Rule: "mcp__db__drop_table", Hash: "sha256:aa"})
	s.SetRule(Rule{Address: addr, Tool: "devin", Scope: "project", Project: "/p", File: "/p/.devin/config.json", KeyPath: keyPath, Rule: "mcp__db__drop_table", Hash: "sha256:bb"})
	if len(s.Rules) != 1 || s.Rules[0].Hash != "sha256:bb" {
		t.Fatalf("SetRule: %+v", s.Rules)
	}
	path := filepath.Join(t.TempDir(), "state.json")
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	r := got.RuleAt("/p/.devin/config.json", keyPath, "mcp__db__drop_table")
	if r == nil || !reflect.DeepEqual(*r, s.Rules[0]) {
		t.Fatalf("read back: %+v", got.Rules)
	}
	if !slices.Contains(got.Addresses(), addr) {
		t.Fatalf("addresses: %v", got.Addresses())
	}
	if d, err := got.Describe(addr); err != nil || !strings.Contains(d, "(permission rule)") || !strings.Contains(d, "mcp__db__drop_table") {
		t.Fatalf("describe: %q %v", d, err)
	}
	if err := got.Forget(addr); err != nil || len(got.Rules) != 0 {
		t.Fatalf("forget: %v %+v", err, got.Rules)
	}
	s.ForgetRule("/p/.devin/config.json", keyPath, "mcp__db__drop_table")
	if len(s.Rules) != 0 {
		t.Fatalf("ForgetRule: %+v", s.Rules)
	}
}
