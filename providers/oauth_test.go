package providers

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/providertest"
)

// TestOAuthFieldsInEachVendorsShape writes a service with a pre-registered
// client through each tool that has OAuth fields (the OAuth table), into
// a new user-level file, and compares the file with the vendor's own
// example shape (docs/providers.md cites each); reading it back gives the
// fields as extra keys, so the next plan finds the entry unchanged.
func TestOAuthFieldsInEachVendorsShape(t *testing.T) {
	o := &service.OAuth{ClientID: "app-123", Scopes: []string{"read", "write"}, CallbackPort: 8765}
	want := map[string]string{
		"claude": `{
  "mcpServers": {
    "linear": {
      "type": "http",
      "url": "https://mcp.linear.example/mcp",
      "oauth": {
        "callbackPort": 8765,
        "clientId": "app-123",
        "scopes": "read write"
      }
    }
  }
}
`,
		"cursor": `{
  "mcpServers": {
    "linear": {
      "url": "https://mcp.linear.example/mcp",
      "auth": {
        "CLIENT_ID": "app-123",
        "scopes": [
          "read",
          "write"
        ]
      }
    }
  }
}
`,
		"gemini": `{
  "mcpServers": {
    "linear": {
      "httpUrl": "https://mcp.linear.example/mcp",
      "oauth": {
        "clientId": "app-123",
        "scopes": [
          "read",
          "write"
        ]
      }
    }
  }
}
`,
		// The same table as the docs' [mcp_servers.linear.oauth], inline.
		"codex": `[mcp_servers.linear]
url = "https://mcp.linear.example/mcp"
oauth = { client_id = "app-123" }
`,
		"opencode": `{
  "mcp": {
    "linear": {
      "type": "remote",
      "url": "https://mcp.linear.example/mcp",
      "oauth": {
        "clientId": "app-123"
      }
    }
  }
}
`,
	}
	env := provider.Env{Home: t.TempDir(), Getenv: func(string) (string, bool) { return "", false }}
	for _, p := range All(nil) {
		support, ok := OAuth[p.Name()]
		if !ok || support.Key == "" {
			continue
		}
		t.Run(p.Name(), func(t *testing.T) {
			in := *o
			if support.CallbackPort == "" {
				in.CallbackPort = 0
			}
			if support.Scopes == "" {
				in.Scopes = nil
			}
			fields, missing := support.Fields(&in)
			if len(missing) > 0 {
				t.Fatalf("missing %v", missing)
			}
			var loc provider.Location
			for _, l := range p.Locations(env) {
				if l.Scope == provider.ScopeUser && !l.ReadOnly {
					loc = l
					break
				}
			}
			e := provider.Entry{Name: "linear", Enabled: true, Extra: fields,
				Definition: service.Definition{Transport: service.HTTP, URL: secret.Literal("https://mcp.linear.example/mcp")}}
			doc, err := p.Parse(loc.File, nil)
			if err != nil {
				t.Fatal(err)
			}
			out, err := doc.Edit([]provider.Edit{{Location: loc, Name: "linear", Entry: &e}})
			if err != nil {
				t.Fatal(err)
			}
			if w := want[p.Name()]; string(out) != w {
				t.Errorf("%s:\n%s\nwant:\n%s", loc.File, out, w)
			}
			if err := os.MkdirAll(filepath.Dir(loc.File), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(loc.File, out, 0o600); err != nil {
				t.Fatal(err)
			}
			entries, err := providertest.Read(p, loc)
			if err != nil || len(entries) != 1 {
				t.Fatalf("read back %v %v", entries, err)
			}
			if !slices.Contains(entries[0].Extra.Keys(), support.Key) || !entries[0].Extra.Only([]string{support.Key}).Equal(fields) {
				t.Errorf("read back extra %v, want %v", entries[0].Extra, fields)
			}
		})
	}
}
