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
	"strconv"
	"sync"

	"github.com/chronicle-dev/chronicle/engine/cores"
	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// Hash returns a digest of a skill folder's tree: every file's relative
// path, executable bit and content, and every symlink's target, in path
// order. Modification times and other metadata are left out, so a copy of a
// skill hashes like the original. Every file is read through r; a Hasher
// hashes each tree once and can take file sums from a cache.
func Hash(r fsys.Reader, dir string) (string, error) {
	sum, _, err := hash(r, nil, dir)
	return sum, err
}

// FileSums knows the SHA-256 of files inside skill trees without reading
// them, or reads them through r: engine/hashcache's Cache, across runs.
// info is the file's lstat.
type FileSums interface {
	FileSum(r fsys.Reader, path string, info fs.FileInfo) ([]byte, error)
}

// A Hasher hashes the skill trees one command reads through one reader,
// each tree once: a later Hash of the same folder gets the first result.
// It assumes the trees do not change while it is used: give one to a plan
// or a scan, never to apply's writes (which call Hash). It is safe for
// concurrent use.
type Hasher struct {
	r    fsys.Reader
	sums FileSums // nil: every file is read

	mu    sync.Mutex
	trees map[string]*tree
}

// A tree is one folder's hash, or the hashing of it under way (done open).
type tree struct {
	done chan struct{}
	hash string
	err  error
	// refused says why Copy would refuse the tree (nil: it would not).
	refused error
}

// NewHasher returns a Hasher reading through r, taking file sums from sums
// (nil: every file read).
func NewHasher(r fsys.Reader, sums FileSums) *Hasher {
	return &Hasher{r: r, sums: sums, trees: map[string]*tree{}}
}

// Reader is the reader h reads through.
func (h *Hasher) Reader() fsys.Reader { return h.r }

// Hash returns the hash of the tree at dir (as the function Hash does),
// computing it the first time dir is asked for; concurrent callers wait
// for that one.
func (h *Hasher) Hash(dir string) (string, error) {
	h.mu.Lock()
	t, ok := h.trees[dir]
	if !ok {
		t = &tree{done: make(chan struct{})}
		h.trees[dir] = t
	}
	h.mu.Unlock()
	if ok {
		<-t.done
		return t.hash, t.err
	}
	t.hash, t.refused, t.err = hash(h.r, h.sums, dir)
	close(t.done)
	return t.hash, t.err
}

// Copyable returns why Copy would refuse the skill folder at dir (already
// resolved, as Resolve gives it), or nil: a link leading out of the
// skill, or an entry that is neither a file, a folder nor a link. It is
// learnt from the walk that hashes the tree, so classification can tell
// importable from not importable without reading the tree again.
func (h *Hasher) Copyable(dir string) error {
	if _, err := h.Hash(dir); err != nil {
		return err
	}
	h.mu.Lock()
	t := h.trees[dir]
	h.mu.Unlock()
	return t.refused
}

// HashAll hashes the trees at dirs on one goroutine per core, so that
// later Hash calls for these dirs find their result. Errors are left for
// those calls. A handful of trees is not worth the goroutines and is left
// to them too.
func (h *Hasher) HashAll(dirs []string) {
	if len(dirs) < cores.Few {
		return
	}
	cores.Each(len(dirs), func(i int) { h.Hash(dirs[i]) })
}

// hash hashes the tree at dir read through r, its file sums from sums
// when not nil, and says why Copy would refuse the tree (refused).
func hash(r fsys.Reader, sums FileSums, dir string) (string, error, error) {
	var all []treeItem
	var refused error
	if err := walk(r, dir, "", &all); err != nil {
		return "", nil, fmt.Errorf("hashing %s: %w", dir, err)
	}
	items := all[:0]
	for _, it := range all {
		switch {
		case it.kind == 's':
			if refused == nil {
				refused = fmt.Errorf("%s is not a regular file", it.rel)
			}
			continue // not part of the hash
		case it.kind == 'l' && refused == nil && linksOutside(dir, filepath.Join(dir, filepath.FromSlash(it.rel)), it.link):
			refused = fmt.Errorf("%s links outside the skill (%s)", it.rel, it.link)
		}
		items = append(items, it)
	}
	for i := range items {
		if items[i].kind == 'l' {
			continue
		}
		path := filepath.Join(dir, filepath.FromSlash(items[i].rel))
		var sum []byte
		var err error
		if sums != nil {
			sum, err = sums.FileSum(r, path, items[i].info)
		} else {
			sum, err = FileSum(r, path)
		}
		if err != nil {
			return "", nil, fmt.Errorf("hashing %s: %w", dir, err)
		}
		items[i].sum, items[i].info = sum, nil
	}
	return digest(items), refused, nil
}

// digest is the tree hash of items, each file's sum filled in.
func digest(items []treeItem) string {
	sort.Slice(items, func(i, j int) bool { return items[i].rel < items[j].rel })
	h := sha256.New()
	// The lines fmt's "%c %q\n", "-> %q\n" and "%x\n" write, appended
	// without fmt (a tree hash is recorded: the bytes must not change).
	var line []byte
	for _, it := range items {
		line = append(append(line[:0], it.kind, ' '), strconv.Quote(it.rel)...)
		line = append(line, '\n')
		if it.kind == 'l' {
			line = append(append(line, "-> "...), strconv.Quote(it.link)...)
		} else {
			line = hex.AppendEncode(line, it.sum)
		}
		h.Write(append(line, '\n'))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// A treeItem is one file or link of a skill's tree.
type treeItem struct {
	rel  string // slash-separated, relative to the skill
	kind byte   // 'f' file, 'x' executable file, 'l' symlink; 's' anything else (walk only: not hashed)
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
		default:
			*items = append(*items, treeItem{rel: name, kind: 's'})
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
