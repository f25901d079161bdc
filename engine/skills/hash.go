package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"sync"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// Hash returns a digest of a skill folder's tree: every file's relative
// path, executable bit and content, and every symlink's target, in path
// order. Modification times and other metadata are left out, so a copy of a
// skill hashes like the original.
func Hash(r fsys.Reader, dir string) (string, error) {
	var items []treeItem
	if err := walk(r, dir, "", &items); err != nil {
		return "", fmt.Errorf("hashing %s: %w", dir, err)
	}
	for i := range items {
		if items[i].kind == 'l' {
			continue
		}
		sum, err := fileSum(r, filepath.Join(dir, filepath.FromSlash(items[i].rel)))
		if err != nil {
			return "", fmt.Errorf("hashing %s: %w", dir, err)
		}
		items[i].sum = sum
	}
	return digest(items), nil
}

// digest is the tree hash of items, each file's sum filled in.
func digest(items []treeItem) string {
	sort.Slice(items, func(i, j int) bool { return items[i].rel < items[j].rel })
	h := sha256.New()
	for _, it := range items {
		fmt.Fprintf(h, "%c %q\n", it.kind, it.rel)
		if it.kind == 'l' {
			fmt.Fprintf(h, "-> %q\n", it.link)
			continue
		}
		fmt.Fprintf(h, "%x\n", it.sum)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// A treeItem is one file or link of a skill's tree.
type treeItem struct {
	rel  string // slash-separated, relative to the skill
	kind byte   // 'f' file, 'x' executable file, 'l' symlink
	link string
	sum  []byte // a file's SHA-256
}

// fileKind is 'x' for an executable file, else 'f'.
func fileKind(mode fs.FileMode) byte {
	if mode&0o111 != 0 {
		return 'x'
	}
	return 'f'
}

// walk lists the files and links under dir/rel, folders first descended.
func walk(r fsys.Reader, dir, rel string, items *[]treeItem) error {
	entries, err := r.ReadDir(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := path.Join(rel, e.Name())
		full := filepath.Join(dir, filepath.FromSlash(name))
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			target, err := r.Readlink(full)
			if err != nil {
				return err
			}
			*items = append(*items, treeItem{rel: name, kind: 'l', link: target})
		case e.IsDir():
			if err := walk(r, dir, name, items); err != nil {
				return err
			}
		case e.Type().IsRegular():
			info, err := e.Info()
			if err != nil {
				return err
			}
			*items = append(*items, treeItem{rel: name, kind: fileKind(info.Mode())})
		}
	}
	return nil
}

// buffers are reused across file reads: hashing many small files with a
// fresh buffer each time is mostly garbage collection.
var buffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func fileSum(r fsys.Reader, path string) ([]byte, error) {
	f, err := r.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := buffers.Get().(*[]byte)
	defer buffers.Put(buf)
	h := sha256.New()
	// Not io.CopyBuffer: an *os.File is an io.WriterTo, which io.Copy
	// prefers, and whose fallback allocates a fresh buffer per file.
	for {
		n, err := f.Read(*buf)
		h.Write((*buf)[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return h.Sum(nil), nil
}
