package decoded

import "maps"

// A Change sets or removes the member Name of the map at KeyPath.
type Change struct {
	KeyPath []string
	Name    string
	Value   any
	Remove  bool
}

// With returns tree with changes made, creating the maps missing along a
// key path (a value in the way is replaced by a map). Only the maps along
// the key paths are copied: the rest is shared with tree, which stays as it
// was, so the expected meaning of an edit of a large file costs little.
func With(tree map[string]any, changes []Change) map[string]any {
	copied := map[string]map[string]any{}
	own := func(id string, orig any) map[string]any {
		if m, ok := copied[id]; ok {
			return m
		}
		src, _ := orig.(map[string]any)
		m := make(map[string]any, len(src)+1)
		for k, v := range src {
			m[k] = v
		}
		copied[id] = m
		return m
	}
	root := own("", tree)
	for _, c := range changes {
		parent := root
		id := ""
		for _, k := range c.KeyPath {
			id += "\x00" + k
			next := own(id, parent[k])
			parent[k] = next
			parent = next
		}
		if c.Remove {
			delete(parent, c.Name)
		} else {
			parent[c.Name] = c.Value
		}
	}
	return root
}

// Own returns tree with the maps along each key path copied, so that Prune
// may change them; the rest is shared with tree, which stays as it was.
func Own(tree map[string]any, keyPaths [][]string) map[string]any {
	root := maps.Clone(tree)
	copied := map[string]bool{}
	for _, keyPath := range keyPaths {
		parent, id := root, ""
		for _, k := range keyPath {
			next, ok := parent[k].(map[string]any)
			if !ok {
				break
			}
			if id += "\x00" + k; !copied[id] {
				copied[id] = true
				next = maps.Clone(next)
				parent[k] = next
			}
			parent = next
		}
	}
	return root
}

// Prune deletes the maps along keyPath that are empty, deepest first (never
// tree itself). It changes tree: give it a tree of its own, such as one
// With returns (whose maps along the key paths given to With are copies).
func Prune(tree map[string]any, keyPath []string) {
	if len(keyPath) == 0 {
		return
	}
	next, ok := tree[keyPath[0]].(map[string]any)
	if !ok {
		return
	}
	Prune(next, keyPath[1:])
	if len(next) == 0 {
		delete(tree, keyPath[0])
	}
}
