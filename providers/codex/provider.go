package codex

import (
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

// Parse parses the content of a config.toml (nil: a file that does not
// exist yet).
func (Provider) Parse(file string, src []byte) (provider.Document, error) {
	doc, err := tomlfile.Parse(file, src)
	if err != nil {
		return nil, err
	}
	return document{doc}, nil
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
