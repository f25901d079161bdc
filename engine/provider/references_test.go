package provider_test

import (
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers"
)

// TestCanReference: the tools with a syntax for secret references say so,
// those without (the hub reaches their services) say not.
func TestCanReference(t *testing.T) {
	want := map[string]bool{"claude": true, "cursor": true, "codex": true, "goose": true, "antigravity": false, "zed": false, "devin": false, "claude-desktop": false}
	seen := 0
	for _, p := range providers.All(nil) {
		w, ok := want[p.Name()]
		if !ok {
			continue
		}
		seen++
		if got := provider.CanReference(p); got != w {
			t.Errorf("CanReference(%s) = %v, want %v", p.Name(), got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d providers", seen, len(want))
	}
}
