package codex

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

// Declared extra keys are written into the server table as given, read
// back as declared, dropped when no longer declared (startup_timeout_sec,
// which chronicle never wrote, stays), and a key chronicle models is
// refused; every other table and comment of the file stays byte for byte.
func TestExtraKeys(t *testing.T) {
	_, loc := home(t, fixture(t, "home"))
	pt.ExtraKeys(t, New(), loc, "chronova", provider.Extra{
		"alwaysAllow": []any{"read"}, "x_retry": int64(3), "x_meta": map[string]any{"ratio": 0.5, "on": true},
	})
	b := string(readFile(t, loc.File))
	for _, want := range []string{"startup_timeout_sec = 20", "x_retry = 3", `x_meta = { on = true, ratio = 0.5 }`, "# --- MCP servers", "# parked: re-enable when needed"} {
		if !strings.Contains(b, want) {
			t.Errorf("config.toml lacks %q:\n%s", want, b)
		}
	}
}

// TOML has no null: an extra key set to null is refused by name.
func TestExtraNullIsRefused(t *testing.T) {
	e := provider.Entry{Name: "s", Enabled: true, Extra: provider.Extra{"x": nil}}
	e.Transport, e.Command = "stdio", "npx"
	if _, err := New().Render(e); err == nil || !strings.Contains(err.Error(), `"x" is null`) {
		t.Fatalf("Render of a null extra key: %v", err)
	}
}
