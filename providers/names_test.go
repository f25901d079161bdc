package providers

import (
	"slices"
	"testing"
)

// TestNamesMatchAll: Names lists every built-in provider of All, in its
// order, so that a link, --tool and the docs know every tool.
func TestNamesMatchAll(t *testing.T) {
	var got []string
	for _, p := range All(nil) {
		got = append(got, p.Name())
	}
	if !slices.Equal(got, Names()) {
		t.Fatalf("All gives %v, Names %v", got, Names())
	}
}
