package goose

import (
	"os"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

// Declared extra keys are written into the extension as given, read back
// as declared, dropped when no longer declared (the description goose's
// user wrote stays), and a key the provider models is refused; every other
// extension, comment and blank line stays byte for byte.
func TestExtraKeys(t *testing.T) {
	env := tt.Home(t)
	p := New()
	loc := tt.Location(t, p, env, provider.ScopeUser, file)
	pt.ExtraKeys(t, p, loc, "github", provider.Extra{
		"bundled": false, "x_retry": int64(3), "x_meta": map[string]any{"ratio": 0.5, "on": true},
	})
	raw, err := os.ReadFile(loc.File)
	if err != nil {
		t.Fatal(err)
	}
	b := string(raw)
	for _, want := range []string{"description: GitHub repositories and issues", "x_retry: 3", "# The token is in goose's keyring", "enabled: false   # off until the key is rotated"} {
		if !strings.Contains(b, want) {
			t.Errorf("config.yaml lacks %q:\n%s", want, b)
		}
	}
}

// goose's own defaults (an empty description, bundled: null) are not
// extra keys: adopt would copy them into chronicle's config for nothing.
func TestDefaultsAreNotExtra(t *testing.T) {
	e, ok, err := readEntry("s", map[string]any{"type": "stdio", "enabled": true, "cmd": "x", "args": []any{},
		"description": "", "bundled": nil, "display_name": nil, "x": "y"})
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if len(e.Extra) != 1 || e.Extra["x"] != "y" {
		t.Fatalf("extra %#v, want only x", e.Extra)
	}
}
