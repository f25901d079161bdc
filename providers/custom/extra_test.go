package custom

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

// A tool block's provider carries extra keys like the built-in ones, in
// JSONC and in TOML.
func TestCustomExtraKeys(t *testing.T) {
	extra := provider.Extra{"alwaysAllow": []any{"read"}, "x_retry": int64(3)}
	t.Run("jsonc", func(t *testing.T) {
		home := t.TempDir()
		file := filepath.Join(home, "settings.jsonc")
		os.WriteFile(file, []byte("{\n  // acme\n  \"mcp\": {\n    \"docs\": { \"url\": \"https://docs.example.com/mcp\", \"mine\": 1 },\n  },\n}\n"), 0o644)
		p := New(&config.Tool{Name: "acme", Format: config.FormatJSONC, Config: file, ServersKey: "mcp"})
		pt.ExtraKeys(t, p, p.Locations(provider.Env{Home: home})[0], "docs", extra)
	})
	t.Run("toml", func(t *testing.T) {
		home := t.TempDir()
		file := filepath.Join(home, "agent.toml")
		os.WriteFile(file, []byte("# agent\nname = \"x\"\n\n[servers.docs]\nurl = \"https://docs.example.com/mcp\"\nmine = 1\n"), 0o644)
		p := New(&config.Tool{Name: "agent", Format: config.FormatTOML, Config: file, ServersKey: "servers"})
		pt.ExtraKeys(t, p, p.Locations(provider.Env{Home: home})[0], "docs", extra)
	})
}
