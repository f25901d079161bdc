package hashcache

import (
	"bytes"
	"os"
	"sync"
)

// CheckedFileName is the file of checked configurations under chronicle's
// home.
const CheckedFileName = "cache/checked-configs"

// maxChecked is how many configuration files Checked remembers.
const maxChecked = 64

var checkedMagic = []byte("chronicle checked configurations 1\n")

// Checked remembers, by content hash, the configuration files that passed
// the checks engine/config makes before parsing (size, UTF-8 text,
// nesting): a large file unchanged since is parsed without being lexed a
// second time for the check. The checks are a pure function of the bytes,
// so a file with a remembered hash passes them again. Like the skill hash
// cache, apply and sync write it and other commands only read it; a
// corrupt or foreign file remembers nothing. It is safe for concurrent use.
type Checked struct {
	path string

	mu    sync.Mutex
	sums  [][32]byte // oldest first
	added bool
}

// LoadChecked reads the file at path.
func LoadChecked(path string) *Checked {
	c := &Checked{path: path}
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(data, checkedMagic) {
		return c
	}
	data = data[len(checkedMagic):]
	if len(data)%32 != 0 || len(data)/32 > maxChecked {
		return c
	}
	for ; len(data) > 0; data = data[32:] {
		c.sums = append(c.sums, [32]byte(data[:32]))
	}
	return c
}

// Passed reports whether a file with this SHA-256 passed the checks.
func (c *Checked) Passed(sum [32]byte) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.sums {
		if s == sum {
			return true
		}
	}
	return false
}

// Add remembers that a file with this SHA-256 passed the checks.
func (c *Checked) Add(sum [32]byte) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.sums {
		if s == sum {
			return
		}
	}
	c.sums = append(c.sums, sum)
	if len(c.sums) > maxChecked {
		c.sums = c.sums[len(c.sums)-maxChecked:]
	}
	c.added = true
}

// Save writes the file when this run added to it. Only a command holding
// the state lock may call it.
func (c *Checked) Save() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.added {
		return nil
	}
	buf := append([]byte(nil), checkedMagic...)
	for _, s := range c.sums {
		buf = append(buf, s[:]...)
	}
	if err := replace(c.path, buf); err != nil {
		return err
	}
	c.added = false
	return nil
}
