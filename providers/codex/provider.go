package codex

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/tomlfile"
)

// Name is the tool's name as written in a link.
const Name = "codex"

// serversKey is where Codex keeps its servers.
const serversKey = "mcp_servers"

// A Provider is Codex's provider.Provider.
type Provider struct{}

// New returns Codex's provider.
func New() Provider { return Provider{} }

var _ provider.Provider = Provider{}

// Name returns "codex".
func (Provider) Name() string { return Name }

// Read returns the servers at loc, in file order.
func (Provider) Read(loc provider.Location) ([]provider.Entry, error) {
	doc, err := tomlfile.ReadFile(loc.File)
	if err != nil {
		return nil, err
	}
	return readEntries(doc, keyPath(loc))
}

// Put adds or replaces e at loc in Codex's syntax, keeping the keys of an
// existing entry that chronicle does not own.
func (Provider) Put(loc provider.Location, e provider.Entry) error {
	t, err := table(e)
	if err != nil {
		return fmt.Errorf("%s: %w", loc.File, err)
	}
	return tomlfile.PutFile(loc.File, keyPath(loc), e.Name, func(current map[string]any) (tomlfile.Table, error) {
		return keepUnowned(t, current), nil
	})
}

// Remove deletes the server name at loc.
func (Provider) Remove(loc provider.Location, name string) error {
	return tomlfile.RemoveFile(loc.File, keyPath(loc), name)
}

// Render returns e as the [mcp_servers.<name>] table Codex would store.
func (Provider) Render(e provider.Entry) ([]byte, error) {
	t, err := table(e)
	if err != nil {
		return nil, err
	}
	return t.Render([]string{serversKey, e.Name})
}

func keyPath(loc provider.Location) []string {
	if len(loc.KeyPath) == 0 {
		return []string{serversKey}
	}
	return loc.KeyPath
}
