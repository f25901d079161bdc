package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Hash returns a digest of a skill folder's tree: every file's relative
// path, executable bit and content, and every symlink's target, in path
// order. Modification times and other metadata are left out, so a copy of a
// skill hashes like the original.
func Hash(dir string) (string, error) {
	type item struct {
		rel  string
		kind byte
		path string
		link string
	}
	var items []item
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			items = append(items, item{rel: rel, kind: 'l', link: target})
		case d.Type().IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			kind := byte('f')
			if info.Mode()&0o111 != 0 {
				kind = 'x'
			}
			items = append(items, item{rel: rel, kind: kind, path: path})
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hashing %s: %w", dir, err)
	}
	sort.Slice(items, func(i, j int) bool { return items[i].rel < items[j].rel })
	h := sha256.New()
	for _, it := range items {
		fmt.Fprintf(h, "%c %q\n", it.kind, it.rel)
		if it.kind == 'l' {
			fmt.Fprintf(h, "-> %q\n", it.link)
			continue
		}
		f, err := os.Open(it.path)
		if err != nil {
			return "", fmt.Errorf("hashing %s: %w", dir, err)
		}
		fh := sha256.New()
		_, err = io.Copy(fh, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("hashing %s: %w", it.path, err)
		}
		fmt.Fprintf(h, "%x\n", fh.Sum(nil))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
