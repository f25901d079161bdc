package custom

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

func TestCustomJSONCToolRoundTrip(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, ".acme", "settings.jsonc")
	os.MkdirAll(filepath.Dir(file), 0o755)
	orig := "{\n  // acme settings\n  \"theme\": \"dark\",\n  \"mcp\": {\n    \"servers\": {\n      \"docs\": { \"url\": \"https://docs.example.com/mcp\" },\n    },\n  },\n}\n"
	os.WriteFile(file, []byte(orig), 0o644)
	p := New(&config.Tool{Name: "acme", Format: config.FormatJSONC, Config: file, ServersKey: "mcp.servers", SkillsDir: filepath.Join(home, ".acme", "skills")})
	env := provider.Env{Home: home}
	locs := p.Locations(env)
	if len(locs) != 1 || p.Name() != "acme" || p.SkillDirs(env)[0].Dir != filepath.Join(home, ".acme", "skills") {
		t.Fatalf("locations %+v", locs)
	}
	entries, err := pt.Read(p, locs[0])
	if err != nil || len(entries) != 1 || entries[0].Transport != service.HTTP {
		t.Fatalf("read %+v, %v", entries, err)
	}
	e := provider.Entry{Name: "fs", Definition: service.Definition{Transport: service.Stdio, Command: "npx", Args: []secret.Value{secret.Literal("-y")}}, Enabled: true}
	if err := pt.Put(p, locs[0], e); err != nil {
		t.Fatal(err)
	}
	if err := pt.Remove(p, locs[0], "fs"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != orig {
		t.Fatalf("add then remove changed the file:\n%s", b)
	}
	e.Env = map[string]secret.Value{"T": secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "T"})}
	if _, err := p.Render(e); err == nil || !strings.Contains(err.Error(), "acme") {
		t.Fatalf("a secret for a tool with no reference syntax must be refused, got %v", err)
	}
}

func TestCustomTOMLTool(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "agent.toml")
	orig := "# agent\nname = \"x\"\n\n[servers.docs]\nurl = \"https://docs.example.com/mcp\"\n"
	os.WriteFile(file, []byte(orig), 0o644)
	p := New(&config.Tool{Name: "agent", Format: config.FormatTOML, Config: file, ServersKey: "servers"})
	loc := p.Locations(provider.Env{Home: home})[0]
	entries, err := pt.Read(p, loc)
	if err != nil || len(entries) != 1 || entries[0].Name != "docs" {
		t.Fatalf("read %+v, %v", entries, err)
	}
	e := provider.Entry{Name: "fs", Definition: service.Definition{Transport: service.Stdio, Command: "npx"}, Enabled: true}
	if err := pt.Put(p, loc, e); err != nil {
		t.Fatal(err)
	}
	if err := pt.Remove(p, loc, "fs"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != orig {
		t.Fatalf("add then remove changed the file:\n%q", b)
	}
}
