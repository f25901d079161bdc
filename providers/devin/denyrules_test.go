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
	seen := map[string]bool{}
	for _, loc := range New().Locations(env) {
		list, ok := provider.DenyList{}, loc.Deny != nil
		if ok {
			list = *loc.Deny
		}
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
	if _, ok := denyList(provider.Location{File: "/x/other.json"}); ok {
		t.Error("a file not named mcp_* has a deny list")
	}
}
