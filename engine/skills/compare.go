package skills

import (
	"bytes"
	"path/filepath"
	"sort"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// A Difference is one file or symbolic link that differs between two
// skill trees, as their tree hashes see them: its content, its executable
// bit, a link's target, or being there at all.
type Difference struct {
	Path string // slash-separated, relative to the skill
	// From and To are the file as the first and the second tree hold it;
	// Kind is "" where a tree does not hold it.
	From, To TreeEntry
	// Content says the bytes differ (or the entry is there on one side
	// only); a file whose executable bit alone changed has it false.
	Content bool
}

// A TreeEntry is one file or link of a skill tree.
type TreeEntry struct {
	Kind       string // "file", "link", or "" when absent
	Executable bool   // for a file
	Link       string // a link's target
	Size       int64  // a file's size
}

// Compare returns, sorted by path, the files and links that differ between
// the skill tree at a (read through ra) and the one at b (through rb).
// Every file whose size matches is read to compare its content; a plan
// calls it only for a skill whose tree hash changed.
func Compare(ra fsys.Reader, a string, rb fsys.Reader, b string) ([]Difference, error) {
	from, err := entries(ra, a)
	if err != nil {
		return nil, err
	}
	to, err := entries(rb, b)
	if err != nil {
		return nil, err
	}
	var out []Difference
	for rel, x := range from {
		y, ok := to[rel]
		if !ok {
			out = append(out, Difference{Path: rel, From: x, Content: true})
			continue
		}
		same, err := sameContent(ra, filepath.Join(a, filepath.FromSlash(rel)), x, rb, filepath.Join(b, filepath.FromSlash(rel)), y)
		if err != nil {
			return nil, err
		}
		if !same || x.Executable != y.Executable {
			out = append(out, Difference{Path: rel, From: x, To: y, Content: !same})
		}
	}
	for rel, y := range to {
		if _, ok := from[rel]; !ok {
			out = append(out, Difference{Path: rel, To: y, Content: true})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// entries lists a tree's files and links by relative path (what the tree
// hash covers: anything else is left out, as there).
func entries(r fsys.Reader, dir string) (map[string]TreeEntry, error) {
	var items []treeItem
	if err := walk(r, dir, "", &items); err != nil {
		return nil, err
	}
	out := make(map[string]TreeEntry, len(items))
	for _, it := range items {
		switch it.kind {
		case 'l':
			out[it.rel] = TreeEntry{Kind: "link", Link: it.link}
		case 'f', 'x':
			out[it.rel] = TreeEntry{Kind: "file", Executable: it.kind == 'x', Size: it.info.Size()}
		}
	}
	return out, nil
}

// sameContent reports whether two entries of one path hold the same: the
// same link target, or files of the same bytes (read only when their
// sizes agree). The executable bit is not content.
func sameContent(ra fsys.Reader, pa string, x TreeEntry, rb fsys.Reader, pb string, y TreeEntry) (bool, error) {
	if x.Kind != y.Kind || x.Link != y.Link || x.Size != y.Size {
		return false, nil
	}
	if x.Kind != "file" {
		return true, nil
	}
	sa, err := FileSum(ra, pa)
	if err != nil {
		return false, err
	}
	sb, err := FileSum(rb, pb)
	if err != nil {
		return false, err
	}
	return bytes.Equal(sa, sb), nil
}
