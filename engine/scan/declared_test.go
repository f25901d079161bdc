package scan_test

import (
	"fmt"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/service"
)

func TestDeclarations(t *testing.T) {
	github := &service.Service{Name: "github", Origin: "claude:user:gh"}
	gh := &service.Service{Name: "gh"}
	lin := &service.Service{Name: "lin", Origin: "cursor:user"}
	linAgain := &service.Service{Name: "lin", Origin: "codex:user"}
	mem := &service.Service{Name: "mem", Origin: "claude:project:gh"}
	odd := &service.Service{Name: "odd", Origin: "nonsense"}
	cfg := &config.Config{Services: []*service.Service{github, gh, lin, linAgain, mem, odd}}
	d := scan.NewDeclarations(cfg)
	for _, c := range []struct {
		tool, name string
		want       *service.Service
	}{
		{"claude", "gh", github},     // the origin names Claude's entry: it beats the service named gh
		{"cursor", "gh", gh},         // no origin in Cursor: the service of that name
		{"claude", "github", github}, // its own name
		{"cursor", "lin", lin},       // two of one name: the first declared
		{"codex", "lin", lin},
		{"claude", "mem", mem},
		{"zed", "nothing", nil},
	} {
		if got := d.Of(c.tool, c.name); got != c.want {
			t.Errorf("%s entry %q: %v, want %v", c.tool, c.name, got, c.want)
		}
	}
	// The index answers as a walk over every service in order does, for
	// every tool and name, the odd ones included.
	for _, tool := range []string{"claude", "cursor", "codex", "zed", ""} {
		for _, name := range []string{"gh", "github", "lin", "mem", "odd", "nothing", ""} {
			if got, want := d.Of(tool, name), walk(cfg, tool, name); got != want {
				t.Errorf("%s entry %q: index %v, walk %v", tool, name, got, want)
			}
		}
	}
	if got := scan.NewDeclarations(nil).Of("claude", "gh"); got != nil {
		t.Errorf("no configuration declared %v", got)
	}
}

// walk is the lookup the index replaces: every service compared in turn.
func walk(cfg *config.Config, tool, name string) *service.Service {
	for _, s := range cfg.Services {
		if t, _, original := s.OriginParts(); t == tool && original == name {
			return s
		}
	}
	return cfg.Service(name)
}

// BenchmarkDeclared looks up 2,000 entries the configuration does not
// declare (the user's own: the walk's worst case) among 2,000 services, as
// a scan of such a home does: through the index built once per scan, and
// through the walk it replaced.
func BenchmarkDeclared(b *testing.B) {
	cfg := &config.Config{}
	for i := range 2000 {
		cfg.Services = append(cfg.Services, &service.Service{Name: fmt.Sprintf("svc-%d", i), Origin: "claude:user"})
	}
	var own []string
	for i := range 2000 {
		own = append(own, fmt.Sprintf("own-%d", i))
	}
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			d := scan.NewDeclarations(cfg)
			for _, name := range own {
				if d.Of("claude", name) != nil {
					b.Fatal(name)
				}
			}
		}
	})
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			for _, name := range own {
				if walk(cfg, "claude", name) != nil {
					b.Fatal(name)
				}
			}
		}
	})
}
