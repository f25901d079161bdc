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

	"github.com/chronicle-dev/chronicle/engine/cores"
	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// Hash returns a digest of a skill folder's tree: every file's relative
// path, executable bit and content, and every symlink's target, in path
// order. Modification times and other metadata are left out, so a copy of a
// skill hashes like the original.
func Hash(r fsys.Reader, dir string) (string, error) {
	if m, ok := r.(treeMemo); ok {
		return m.Tree(dir, func() (string, error) { return hash(r, dir) })
	}
	return hash(r, dir)
}

// A treeMemo hashes each tree once (engine/hashcache's Reader).
type treeMemo interface {
	Tree(dir string, hash func() (string, error)) (string, error)
}

// A fileSummer knows files' sums without reading them (engine/hashcache's
// Reader); info is the file's lstat.
type fileSummer interface {
	FileSum(path string, info fs.FileInfo) ([]byte, error)
}

func hash(r fsys.Reader, dir string) (string, error) {
	var items []treeItem
	if err := walk(r, dir, "", &items); err != nil {
		return "", fmt.Errorf("hashing %s: %w", dir, err)
	}
	summer, _ := r.(fileSummer)
	for i := range items {
		if items[i].kind == 'l' {
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(items[i].rel))
		var sum []byte
		var err error
		if summer != nil {
			sum, err = summer.FileSum(path, items[i].info)
		} else {
			sum, err = FileSum(r, path)
		}
		if err != nil {
			return "", fmt.Errorf("hashing %s: %w", dir, err)
		}
		items[i].sum, items[i].info = sum, nil
	}
	return digest(items), nil
}

// HashAll hashes the trees at dirs on one goroutine per core, for a
// reader that remembers trees (engine/hashcache's): later Hash calls for
// these dirs find their result. Errors are left for those calls. A handful
// of trees is not worth the goroutines and is left to them too.
func HashAll(r fsys.Reader, dirs []string) {
	if _, ok := r.(treeMemo); !ok || len(dirs) < cores.Few {
		return
	}
	cores.Each(len(dirs), func(i int) { Hash(r, dirs[i]) })
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
	sum  []byte      // a file's SHA-256
	info fs.FileInfo // a file's lstat, until it is hashed
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
			*items = append(*items, treeItem{rel: name, kind: fileKind(info.Mode()), info: info})
		}
	}
	return nil
}

// buffers are reused across file reads: hashing many small files with a
// fresh buffer each time is mostly garbage collection.
var buffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// FileSum returns the SHA-256 of the file at path, read with a pooled
// buffer (engine/hashcache reads the files its cache does not know with it).
func FileSum(r fsys.Reader, path string) ([]byte, error) {
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
