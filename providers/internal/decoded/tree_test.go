package decoded

import (
	"reflect"
	"testing"
)

func TestWithCopiesOnlyTheKeyPaths(t *testing.T) {
	shared := map[string]any{"x": 1}
	tree := map[string]any{
		"other": shared,
		"s":     map[string]any{"a": 1, "gone": 2},
		"flat":  "value",
	}
	got := With(tree, []Change{
		{KeyPath: []string{"s"}, Name: "b", Value: 3},
		{KeyPath: []string{"s"}, Name: "gone", Remove: true},
		{KeyPath: []string{"new", "deep"}, Name: "c", Value: 4},
		{KeyPath: []string{"flat"}, Name: "d", Value: 5},
	})
	want := map[string]any{
		"other": map[string]any{"x": 1},
		"s":     map[string]any{"a": 1, "b": 3},
		"new":   map[string]any{"deep": map[string]any{"c": 4}},
		"flat":  map[string]any{"d": 5},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if s := tree["s"].(map[string]any); len(s) != 2 || s["gone"] != 2 || tree["flat"] != "value" || len(tree) != 3 {
		t.Fatalf("the original tree changed: %v", tree)
	}
	shared["y"] = 2
	if got["other"].(map[string]any)["y"] != 2 {
		t.Error("a map off the key paths was copied")
	}
}

func TestPruneRemovesEmptiedMapsUpTheKeyPath(t *testing.T) {
	tree := map[string]any{
		"projects": map[string]any{"p": map[string]any{"servers": map[string]any{}}},
		"keep":     map[string]any{"servers": map[string]any{}, "x": 1},
	}
	Prune(tree, []string{"projects", "p", "servers"})
	Prune(tree, []string{"keep", "servers"})
	want := map[string]any{"keep": map[string]any{"x": 1}}
	if !reflect.DeepEqual(tree, want) {
		t.Fatalf("got %v, want %v", tree, want)
	}
}

func TestOwnCopiesTheKeyPathsForPrune(t *testing.T) {
	tree := map[string]any{
		"p":     map[string]any{"a": map[string]any{"s": map[string]any{}}, "b": map[string]any{"s": map[string]any{}}},
		"other": map[string]any{"x": 1},
	}
	own := Own(tree, [][]string{{"p", "a", "s"}, {"p", "b", "s"}})
	Prune(own, []string{"p", "a", "s"})
	Prune(own, []string{"p", "b", "s"})
	if _, ok := own["p"]; ok {
		t.Fatalf("pruning the copy left %v", own)
	}
	want := map[string]any{
		"p":     map[string]any{"a": map[string]any{"s": map[string]any{}}, "b": map[string]any{"s": map[string]any{}}},
		"other": map[string]any{"x": 1},
	}
	if !reflect.DeepEqual(tree, want) {
		t.Fatalf("pruning the copy changed the tree: %v", tree)
	}
}
