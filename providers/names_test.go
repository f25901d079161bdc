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

// TestProductsNameEveryTool: every built-in tool but the agents
// convention has its vendor's name, once.
func TestProductsNameEveryTool(t *testing.T) {
	var tools []string
	for _, p := range Products() {
		tools = append(tools, p.Tool)
	}
	want := slices.DeleteFunc(Names(), func(n string) bool { return n == "agents" })
	slices.Sort(tools)
	slices.Sort(want)
	if !slices.Equal(tools, want) || len(Products()) != 17 {
		t.Fatalf("products name %v, tools are %v", tools, want)
	}
}
