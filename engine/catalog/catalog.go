package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// FileName is the cache's name in chronicle's folder.
const FileName = "catalog.json"

// Version is the format Save writes; Load refuses others.
const Version = 1

// A File is the catalogue cache.
type File struct {
	Version int `json:"version"`
	// MetaTokens is the cost of the three meta-tools search mode lists.
	MetaTokens int `json:"meta_tokens"`
	// Services holds each service's last listing, by service name.
	Services map[string]Listing `json:"services"`
}

// A Listing is what one service listed when the hub last asked it: its
// tools, each with its cost.
type Listing struct {
	Listed time.Time `json:"listed"`
	Tools  []Tool    `json:"tools"`
}

// Tokens returns the summed cost of the listing's tools.
func (l Listing) Tokens() int {
	n := 0
	for _, t := range l.Tools {
		n += t.Tokens
	}
	return n
}

// A Tool is one tool as the hub lists it, and its cost.
type Tool struct {
	Name        string          `json:"name"`    // the service's own name
	Exposed     string          `json:"exposed"` // <service>__<tool> as the hub lists it
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	Tokens      int             `json:"tokens"`
}

// Path returns the cache's path in chronicle's folder.
func Path(chronicleHome string) string { return filepath.Join(chronicleHome, FileName) }

// Load reads the cache; a missing file is (nil, nil).
func Load(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w (it is a cache: delete it and the hub writes it again)", path, err)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("%s: format %d, this chronicle reads %d (the hub writes it again)", path, f.Version, Version)
	}
	if f.Services == nil {
		f.Services = map[string]Listing{}
	}
	return &f, nil
}

// Merge replaces the listings of the services in listed, drops every
// service not in declared, keeps the others' last listings, and writes the
// result atomically. A cache that cannot be read is replaced.
func Merge(path string, listed map[string]Listing, declared map[string]bool, metaTokens int) error {
	f, err := Load(path)
	if err != nil || f == nil {
		f = &File{Services: map[string]Listing{}}
	}
	f.Version, f.MetaTokens = Version, metaTokens
	for name := range f.Services {
		if !declared[name] {
			delete(f.Services, name)
		}
	}
	for name, l := range listed {
		f.Services[name] = l
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := (fsys.OS{}).MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return (fsys.OS{}).WriteFile(path, append(b, '\n'), 0o600)
}

// Listings returns the cache's listings for estimating what an endpoint
// lists (exposure.Setup.Sees); nil for no cache.
func (f *File) Listings() *exposure.Listings {
	if f == nil {
		return nil
	}
	l := &exposure.Listings{Tools: map[string][]exposure.Tool{}, MetaTokens: f.MetaTokens}
	for name, s := range f.Services {
		tools := make([]exposure.Tool, 0, len(s.Tools))
		for _, t := range s.Tools {
			tools = append(tools, exposure.Tool{Service: name, Name: t.Name, Tokens: t.Tokens})
		}
		l.Tools[name] = tools
	}
	return l
}
