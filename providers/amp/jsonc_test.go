package amp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

// A user whose Amp settings are ~/.config/amp/settings.jsonc has that file
// read and written, its comments and trailing commas kept; where
// settings.json is there too, chronicle writes settings.json and reads the
// .jsonc, read only, with a note on each.
func TestSettingsJSONC(t *testing.T) {
	env := tt.Home(t)
	dir := filepath.Join(env.Home, ".config", "amp")
	jsonc := filepath.Join(dir, "settings.jsonc")
	saved := tt.ReadFile(t, filepath.Join(dir, "settings.json"))
	os.Remove(filepath.Join(dir, "settings.json"))
	tt.WriteFile(t, jsonc, string(tt.ReadFile(t, filepath.Join(tt.Fixtures, "amp", "jsonc", "settings.jsonc"))))
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, "/.config/amp/settings.jsonc")
	if loc.ReadOnly || loc.Note != "" {
		t.Fatalf("location %+v", loc)
	}
	entries, err := pt.Read(p, loc)
	if err != nil || len(entries) != 1 || entries[0].Name != "playwright" {
		t.Fatalf("entries %+v, %v", entries, err)
	}
	e := tt.NewEntry(false)
	tt.Replace(t, p, loc, e)
	if b := string(tt.ReadFile(t, loc.File)); !strings.Contains(b, "// the browser tools") || !strings.Contains(b, `"amp.showCosts": false,`) {
		t.Fatalf("comments lost:\n%s", b)
	}

	tt.WriteFile(t, filepath.Join(dir, "settings.json"), string(saved))
	var user []provider.Location
	for _, l := range p.Locations(env) {
		if l.Scope == provider.ScopeUser {
			user = append(user, l)
		}
	}
	if len(user) != 2 || filepath.Base(user[0].File) != "settings.json" || user[0].ReadOnly || user[0].Note != noteBoth ||
		user[1].File != jsonc || !user[1].ReadOnly || user[1].Note != noteOther {
		t.Fatalf("with both files: %+v", user)
	}
}
