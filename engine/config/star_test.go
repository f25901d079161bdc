package config

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/machine"
)

// TestLinkStars: tools = ["*"] and services = ["*"] pass validation and
// stand for the tools present and the declared services (chronova, the
// built-in, left out); names listed beside "*" are kept, first.
func TestLinkStars(t *testing.T) {
	src := `
service "b" { command = "b" }
service "a" { command = "a" }
chronova {}
link "all" {
  tools    = ["vscode", "*"]
  services = ["*"]
}
link "named" {
  tools    = ["claude"]
  services = ["chronova", "*"]
}
`
	opts := Options{KnownTools: []string{"claude", "cursor", "vscode", "zed"}, Machine: machine.Facts{Tools: []string{"zed", "claude"}}}
	cfg, diags := loadMachine(t, src, opts)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	all, named := cfg.Links[0], cfg.Links[1]
	if got, want := strings.Join(cfg.LinkTools(all), ","), "vscode,claude,zed"; got != want {
		t.Errorf("tools of all = %q, want %q", got, want)
	}
	if !all.AllTools() || all.Names("zed") || !all.Names("vscode") {
		t.Errorf("AllTools %v, Names(zed) %v, Names(vscode) %v", all.AllTools(), all.Names("zed"), all.Names("vscode"))
	}
	if got, want := strings.Join(cfg.LinkServices(all), ","), "a,b"; got != want {
		t.Errorf("services of all = %q, want %q (chronova is hub-only)", got, want)
	}
	if got, want := strings.Join(cfg.LinkServices(named), ","), "chronova,a,b"; got != want {
		t.Errorf("services of named = %q, want %q", got, want)
	}
	if got, want := strings.Join(cfg.LinkTools(named), ","), "claude"; got != want {
		t.Errorf("tools of named = %q, want %q", got, want)
	}

	_, diags = loadMachine(t, `
service "a" { command = "a" }
link "twice" {
  tools    = ["*", "*"]
  services = ["*"]
}
`, opts)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), `lists "*" more than once`) {
		t.Errorf("a star listed twice: %v", diags)
	}
}
