package cline

import (
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	tt "github.com/chronicle-dev/chronicle/providers/jsontool/jsontooltest"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

// Declared extra keys are written into the entry as given, read back as
// declared, dropped when no longer declared, and a key the provider models
// is refused; the rest of the file stays byte for byte.
func TestExtraKeys(t *testing.T) {
	env := tt.Home(t)
	p := New()
	pt.ExtraKeys(t, p, tt.Location(t, p, env, provider.ScopeUser, file), "github", provider.Extra{
		"x-note": "kept by hand", "x-retry": int64(3), "x-meta": map[string]any{"ratio": 0.5, "on": true},
	})
}

// Cline's OAuth state is neither read into extra (adopt never copies the
// tokens into chronicle's config) nor writable through it.
func TestOAuthIsNotExtra(t *testing.T) {
	env := tt.Home(t)
	p := New()
	entries, err := pt.Read(p, tt.Location(t, p, env, provider.ScopeUser, file))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if _, ok := e.Extra["oauth"]; ok {
			t.Fatalf("%s: oauth read into extra", e.Name)
		}
	}
	if attr, ok := p.OwnedKeys()["oauth"]; !ok || attr != "" {
		t.Fatalf("oauth owned %v with attribute %q, want read only", ok, attr)
	}
}
