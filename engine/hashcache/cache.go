package hashcache

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// MaxEntries bounds the cache file: 72 bytes an entry, about 7 MB at most.
const MaxEntries = 100_000

// FileName is the cache file under chronicle's home.
const FileName = "cache/skill-hashes"

// magic starts the file; another version's file is ignored.
var magic = []byte("chronicle skill-hash cache 1\n")

const recordSize = 5*8 + 32

// A key is a file's identity as a stat reports it.
type key struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds
}

// A Cache holds the sums read from the cache file and those computed in
// this run. It is safe for concurrent use.
type Cache struct {
	path string
	now  func() time.Time
	// written is when the loaded file was written (its mtime): entries of
	// files modified or changed since are racily clean and not trusted.
	written int64

	mu     sync.Mutex
	loaded map[key][32]byte
	used   map[key]bool
	added  map[key][32]byte
}

// Load reads the cache file at path. A missing, unreadable, corrupt or
// foreign file gives an empty cache. now is the clock that tells how
// recently a file changed when it is hashed (nil: the real one).
func Load(path string, now func() time.Time) *Cache {
	if now == nil {
		now = time.Now
	}
	c := &Cache{path: path, now: now, loaded: map[key][32]byte{}, used: map[key]bool{}, added: map[key][32]byte{}}
	data, err := os.ReadFile(path)
	if err != nil {
		return c
	}
	info, err := os.Stat(path)
	if err != nil {
		return c
	}
	entries, ok := decode(data)
	if !ok {
		return c
	}
	c.loaded, c.written = entries, info.ModTime().UnixNano()
	return c
}

func decode(data []byte) (map[key][32]byte, bool) {
	if !bytes.HasPrefix(data, magic) {
		return nil, false
	}
	data = data[len(magic):]
	if len(data)%recordSize != 0 || len(data)/recordSize > MaxEntries {
		return nil, false
	}
	out := make(map[key][32]byte, len(data)/recordSize)
	le := binary.LittleEndian
	for ; len(data) > 0; data = data[recordSize:] {
		k := key{
			dev: le.Uint64(data), ino: le.Uint64(data[8:]), size: int64(le.Uint64(data[16:])),
			mtime: int64(le.Uint64(data[24:])), ctime: int64(le.Uint64(data[32:])),
		}
		out[k] = [32]byte(data[40:72])
	}
	return out, true
}

// lookup returns the recorded sum of the file with key k, when it is
// trusted: recorded by an earlier run, and the file neither modified nor
// changed since that run wrote the cache — its times strictly older than
// the cache file's, by a whole timestamp unit of the file's filesystem
// (racily clean otherwise).
func (c *Cache) lookup(k key) ([32]byte, bool) {
	if k.newest()+k.granule() > c.written {
		return [32]byte{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	sum, ok := c.loaded[k]
	if ok {
		c.used[k] = true
	}
	return sum, ok
}

// tick is how far the kernel's file timestamps may lag the clock: Linux
// stamps files from its coarse clock, which moves once per scheduler tick
// (at most 10 ms).
const tick = 10 * time.Millisecond

// add records the sum of the file with key k, read after the moment start:
// only when the file's times are older than that by a timestamp unit and a
// tick, so that a rewrite after the read necessarily changes them.
func (c *Cache) add(k key, sum [32]byte, start time.Time) {
	if !k.settled(start) {
		return
	}
	c.mu.Lock()
	c.added[k] = sum
	c.mu.Unlock()
}

// settled reports whether the file's times are older than the moment
// start by a timestamp unit and a tick: any write after start changes them.
func (k key) settled(start time.Time) bool {
	return k.newest()+k.granule()+int64(tick) <= start.UnixNano()
}

// Settled reports whether a file that info (its stat) describes, read
// after the moment start, can be known unchanged later by its stat alone:
// its modification and change times are older than start by a timestamp
// unit of its filesystem and a kernel tick, so any write after the read
// changes them (git's racily-clean rule, the one this cache's entries
// follow). False where this package does not read change times.
func Settled(info fs.FileInfo, start time.Time) bool {
	k, ok := keyOf(info)
	return ok && k.settled(start)
}

// newest is the later of the file's modification and change times.
func (k key) newest() int64 { return max(k.mtime, k.ctime) }

// granule is the unit of the file's timestamps as far as they show it: the
// coarsest power of ten of nanoseconds both are a multiple of, and two
// seconds for whole seconds (FAT stamps even seconds; HFS+, ext3 and many
// network filesystems whole ones). A time in such a unit stands for the
// whole unit: a file stamped 10.0 s on a filesystem of seconds may have
// been written at 10.9 s. A filesystem of nanoseconds shows a unit of a few
// nanoseconds; a file there that happens to be stamped on a whole second
// is only trusted two seconds later, never wrongly.
func (k key) granule() int64 {
	const second = int64(time.Second)
	if k.mtime%second == 0 && k.ctime%second == 0 {
		return 2 * second
	}
	g := int64(1)
	for g < second && k.mtime%(g*10) == 0 && k.ctime%(g*10) == 0 {
		g *= 10
	}
	return g
}

// Save writes the entries used or computed in this run (at most
// MaxEntries) to the cache file, atomically. Only a command holding the
// state lock may call it. Nothing to write leaves the file as it is.
func (c *Cache) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.added) == 0 {
		return nil
	}
	var buf bytes.Buffer
	buf.Write(magic)
	n := 0
	put := func(k key, sum [32]byte) {
		if n >= MaxEntries {
			return
		}
		n++
		var rec [recordSize]byte
		le := binary.LittleEndian
		le.PutUint64(rec[0:], k.dev)
		le.PutUint64(rec[8:], k.ino)
		le.PutUint64(rec[16:], uint64(k.size))
		le.PutUint64(rec[24:], uint64(k.mtime))
		le.PutUint64(rec[32:], uint64(k.ctime))
		copy(rec[40:], sum[:])
		buf.Write(rec[:])
	}
	for k, sum := range c.added {
		put(k, sum)
	}
	for k := range c.used {
		if _, again := c.added[k]; !again {
			put(k, c.loaded[k])
		}
	}
	return replace(c.path, buf.Bytes())
}

// replace writes a cache file whole through the seam (fsys.OS): atomic,
// owned like its folder when chronicle runs as root. A file torn anyway
// fails its length check when read and is ignored.
func replace(path string, data []byte) error {
	if err := (fsys.OS{}).MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return (fsys.OS{}).WriteFile(path, data, 0o600)
}
