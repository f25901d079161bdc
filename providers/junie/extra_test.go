package junie

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
	pt.ExtraKeys(t, p, tt.Location(t, p, env, provider.ScopeUser, file), "context7", provider.Extra{
		"x-note": "kept by hand", "x-retry": int64(3), "x-meta": map[string]any{"ratio": 0.5, "on": true},
	})
}
