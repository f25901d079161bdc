package jsonfile

import (
	"os"
	"sync"
	"time"
)

// Reading caches parsed documents: one scan reads the same file for many
// locations (Claude Code's ~/.claude.json once per project it knows, and
// again for each project's approvals), and that file can be megabytes.
// A cached document is returned only while the file's size, modification
// time and inode are unchanged; writes (Update) always read the file afresh.
var cache = struct {
	sync.Mutex
	docs map[string]cached
}{docs: map[string]cached{}}

type cached struct {
	size  int64
	mtime time.Time
	ino   uint64
	doc   *Document
}

// maxCached bounds the cache; past it, the cache is emptied.
const maxCached = 256

// fromCache returns the cached document of path when the file is unchanged.
func fromCache(path string) (*Document, os.FileInfo) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil
	}
	ino, ok := stamp(info)
	if !ok {
		return nil, info
	}
	cache.Lock()
	defer cache.Unlock()
	c, hit := cache.docs[path]
	if hit && c.size == info.Size() && c.mtime.Equal(info.ModTime()) && c.ino == ino {
		return c.doc, info
	}
	return nil, info
}

// remember caches doc, read from a file that had info before it was read.
func remember(path string, info os.FileInfo, doc *Document) {
	if info == nil {
		return
	}
	ino, ok := stamp(info)
	if !ok || int64(len(doc.src)) != info.Size() {
		return // changed while being read: do not cache
	}
	cache.Lock()
	defer cache.Unlock()
	if len(cache.docs) >= maxCached {
		cache.docs = map[string]cached{}
	}
	cache.docs[path] = cached{size: info.Size(), mtime: info.ModTime(), ino: ino, doc: doc}
}
