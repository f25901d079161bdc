package claude

import (
	"bytes"
	"sync"

	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// A userDoc holds the last parse of ~/.claude.json, given back for the same
// path and the very same bytes. Three readers want that file in one run —
// Locations (for the projects it knows), the engine's View (for the user
// and local entries) and the approvals of every project's .mcp.json (through
// provider.Files) — and it can be megabytes. Comparing its bytes costs a
// fraction of parsing them. A parse is a function of the bytes alone, so
// what is given back is never stale, unlike a cache keyed on the file's
// size and time.
type userDoc struct {
	mu  sync.Mutex
	doc *jsonfile.Document
}

// parse returns src, the content of the file at path, parsed.
func (u *userDoc) parse(path string, src []byte) (*jsonfile.Document, error) {
	u.mu.Lock()
	last := u.doc
	u.mu.Unlock()
	if last != nil && src != nil && last.Path() == path && bytes.Equal(last.Bytes(), src) {
		return last, nil
	}
	doc, err := jsonfile.Parse(path, src)
	if err != nil || src == nil {
		return doc, err
	}
	u.mu.Lock()
	u.doc = doc
	u.mu.Unlock()
	return doc, nil
}
