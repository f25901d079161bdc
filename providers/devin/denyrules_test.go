package devin

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
)

// Each writable mcp_config*.json has its deny rules in the config*.json
// beside it (user, project, local); the read-only config*.json of Devin
// before 3000.3 has none of its own.
func TestDenyListBesideEachFile(t *testing.T) {
	env := tt.Home(t)
	p := New().(provider.DenyRuler)
	seen := map[string]bool{}
	for _, loc := range New().Locations(env) {
		list, ok := p.DenyList(loc)
		if loc.ReadOnly {
			if ok {
				t.Errorf("%s: a read-only file has a deny list", loc.File)
			}
			continue
		}
		want := filepath.Join(filepath.Dir(loc.File), strings.TrimPrefix(filepath.Base(loc.File), "mcp_"))
		if !ok || list.File != want || !slices.Equal(list.KeyPath, []string{"permissions", "deny"}) {
			t.Errorf("%s: deny list %+v, want %s", loc.File, list, want)
		}
		seen[filepath.Base(list.File)] = true
		if got := list.Rule("github", "create_issue"); got != "mcp__github__create_issue" {
			t.Errorf("rule %q", got)
		}
	}
	if !seen["config.json"] || !seen["config.local.json"] {
		t.Errorf("files: %v", seen)
	}
	if _, ok := p.DenyList(provider.Location{File: "/x/other.json"}); ok {
		t.Error("a file not named mcp_* has a deny list")
	}
}

// The rules are read and edited keeping the user's; a list of another type
// is an error naming the file and key path.
func TestDenyRulesReadAndEdit(t *testing.T) {
	p := New().(provider.DenyRuler)
	list := provider.DenyList{File: "/h/.config/devin/config.json", KeyPath: []string{"permissions", "deny"}, Prefix: "mcp__", Separator: "__"}
	src := []byte("{\n  // mine\n  \"permissions\": { \"deny\": [\"Exec(sudo)\", 1] }\n}\n")
	rules, err := p.DenyRules(list, src)
	if err != nil || !slices.Equal(rules, []string{"Exec(sudo)"}) {
		t.Fatalf("rules %v, %v", rules, err)
	}
	if rules, err := p.DenyRules(list, nil); err != nil || rules != nil {
		t.Fatalf("a missing file: %v, %v", rules, err)
	}
	added, err := p.EditDenyRule(list, src, "mcp__db__drop", false)
	if err != nil || !strings.Contains(string(added), "// mine") || !strings.Contains(string(added), `"mcp__db__drop"`) {
		t.Fatalf("added:\n%s\n%v", added, err)
	}
	back, err := p.EditDenyRule(list, added, "mcp__db__drop", true)
	if err != nil || string(back) != string(src) {
		t.Fatalf("removed:\n%s\n%v", back, err)
	}
	for _, bad := range []string{`{"permissions": []}`, `{"permissions": {"deny": "Exec(sudo)"}}`, `{`} {
		if _, err := p.DenyRules(list, []byte(bad)); err == nil || !strings.Contains(err.Error(), list.File) {
			t.Errorf("%s: want an error naming the file, got %v", bad, err)
		}
	}
}
