package codex

import (
	"errors"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/tomlfile"
)

// FuzzRead checks the reader on any bytes: it returns entries or a
// *provider.ParseError, never panics, and every entry it returns either is
// refused by Render or renders to a table that reads back as the same entry.
func FuzzRead(f *testing.F) {
	f.Add(fixture(f, "home"))
	f.Add(fixture(f, "project"))
	f.Add([]byte("[mcp_servers.\"weird.name\"]\ncommand = \"x\"\nenv_vars = [\"A\"]\n"))
	f.Add([]byte("[mcp_servers]\nx = { url = \"https://x\", env_http_headers = { H = \"V\" }, tool_timeout_sec = 1e3 }\n"))
	f.Add([]byte("mcp_servers = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := tomlfile.Parse("config.toml", data)
		if err != nil {
			return
		}
		entries, err := readEntries(doc, []string{serversKey})
		var pe *provider.ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Fatalf("err = %v, want a *provider.ParseError", err)
		}
		for _, e := range entries {
			if e.Canonical == nil {
				t.Fatalf("%s has no canonical form", e.Name)
			}
			text, err := New().Render(e)
			if err != nil {
				continue
			}
			back, err := tomlfile.Parse("rendered.toml", text)
			if err != nil {
				t.Fatalf("rendered %s does not parse: %v\n%s", e.Name, err, text)
			}
			again, err := readEntries(back, []string{serversKey})
			if err != nil || len(again) != 1 {
				t.Fatalf("rendered %s reads back as %v, %v\n%s", e.Name, again, err, text)
			}
			if d := entryDiff(e, again[0]); d != "" {
				t.Fatalf("%s changed through Render (-read +rendered):\n%s\n%s", e.Name, d, text)
			}
		}
	})
}
