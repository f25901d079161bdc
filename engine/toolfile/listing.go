package toolfile

import (
	"strings"
	"sync"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// A Listing is one parsed document's entries, decoded once per location
// and found by name: placing n services in one file then costs one decode
// of the file's entries, not n. A Listing is safe for concurrent use.
type Listing struct {
	doc   provider.Document
	files provider.Files

	mu sync.Mutex
	at map[string]*located
}

type located struct {
	entries []provider.Entry
	byName  map[string]int // the last entry of each name, as EntryIn reads them
	err     error
}

// NewListing returns the listing of doc; files resolves what the provider
// reads beside the document (settings kept in other files).
func NewListing(doc provider.Document, files provider.Files) *Listing {
	return &Listing{doc: doc, files: files, at: map[string]*located{}}
}

// Entries returns the entries at loc. The caller may reorder or shorten the
// slice but must not change the entries' maps and slices.
func (l *Listing) Entries(loc provider.Location) ([]provider.Entry, error) {
	at := l.located(loc)
	return append([]provider.Entry(nil), at.entries...), at.err
}

// Find returns the entry named name at loc, or nil when there is none.
func (l *Listing) Find(loc provider.Location, name string) (*provider.Entry, error) {
	at := l.located(loc)
	if at.err != nil {
		return nil, at.err
	}
	i, ok := at.byName[name]
	if !ok {
		return nil, nil
	}
	e := at.entries[i]
	return &e, nil
}

func (l *Listing) located(loc provider.Location) *located {
	key := LocationKey(loc)
	l.mu.Lock()
	defer l.mu.Unlock()
	if at, ok := l.at[key]; ok {
		return at
	}
	at := &located{}
	at.entries, at.err = l.doc.Entries(loc, l.files)
	at.byName = make(map[string]int, len(at.entries))
	for i, e := range at.entries {
		at.byName[e.Name] = i
	}
	l.at[key] = at
	return at
}

// LocationKey identifies a location: its tool, scope, project, file and key
// path.
func LocationKey(loc provider.Location) string {
	return loc.Tool + "\x00" + loc.Scope + "\x00" + loc.Project + "\x00" + loc.File + "\x00" + strings.Join(loc.KeyPath, "\x00")
}
