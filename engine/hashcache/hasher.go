package hashcache

import (
	"io/fs"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// Hasher returns a skills.Hasher reading through r that takes file sums
// from the cache (FileSum). A nil Cache gives one that reads every file
// (it still hashes each tree once).
func (c *Cache) Hasher(r fsys.Reader) *skills.Hasher {
	if c == nil {
		return skills.NewHasher(r, nil)
	}
	return skills.NewHasher(r, c)
}

// FileSum returns the SHA-256 of the file at path, which info (its lstat)
// describes: from the cache when the file is the one recorded, else read
// through r and recorded for the next run (skills.FileSums).
func (c *Cache) FileSum(r fsys.Reader, path string, info fs.FileInfo) ([]byte, error) {
	k, known := keyOf(info)
	if known {
		if sum, ok := c.lookup(k); ok {
			return sum[:], nil
		}
	}
	start := c.now()
	got, err := skills.FileSum(r, path)
	if err != nil {
		return nil, err
	}
	if known {
		c.add(k, [32]byte(got), start)
	}
	return got, nil
}
