package hashcache

import (
	"io/fs"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// Reader returns r decorated with the cache: skills.Hash through it takes
// file sums from the cache (FileSum) and hashes each tree once (Tree). The
// tree memo assumes the trees do not change while the Reader is used: give
// one to a plan, never to apply's writes. A nil Cache still memoizes trees.
func (c *Cache) Reader(r fsys.Reader) fsys.Reader {
	return &reader{Reader: r, c: c, trees: map[string]*tree{}}
}

type reader struct {
	fsys.Reader
	c *Cache

	mu    sync.Mutex
	trees map[string]*tree
}

type tree struct {
	done chan struct{}
	hash string
	err  error
}

// Tree returns the hash of the tree at dir, computing it with hash the
// first time dir is asked for (concurrent callers wait for that one).
func (r *reader) Tree(dir string, hash func() (string, error)) (string, error) {
	r.mu.Lock()
	t, ok := r.trees[dir]
	if !ok {
		t = &tree{done: make(chan struct{})}
		r.trees[dir] = t
	}
	r.mu.Unlock()
	if ok {
		<-t.done
		return t.hash, t.err
	}
	t.hash, t.err = hash()
	close(t.done)
	return t.hash, t.err
}

// Remember records the hash of the tree at dir, hashed by the caller from
// the disk as it is now (a plan's Before observation of a central copy), so
// that the scan that follows finds it instead of hashing the tree again.
func (r *reader) Remember(dir, hash string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.trees[dir]; ok {
		return
	}
	t := &tree{done: make(chan struct{}), hash: hash}
	close(t.done)
	r.trees[dir] = t
}

// FileSum returns the SHA-256 of the file at path, which info (its lstat)
// describes: from the cache when the file is the one recorded, else read.
func (r *reader) FileSum(path string, info fs.FileInfo) ([]byte, error) {
	k, known := keyOf(info)
	if known && r.c != nil {
		if sum, ok := r.c.lookup(k); ok {
			return sum[:], nil
		}
	}
	var start time.Time
	if r.c != nil {
		start = r.c.now()
	}
	got, err := skills.FileSum(r.Reader, path)
	if err != nil {
		return nil, err
	}
	if known && r.c != nil {
		r.c.add(k, [32]byte(got), start)
	}
	return got, nil
}
