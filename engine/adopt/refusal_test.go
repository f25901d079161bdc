package adopt

import (
	"errors"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// TestDistributeLeavesWhatTheEditorRefuses: an entry whose tool file the
// editor refuses to rewrite (a YAML anchor, in goose) is declared but not
// linked, with the editor's reason; the entries it accepts are linked.
func TestDistributeLeavesWhatTheEditorRefuses(t *testing.T) {
	file := "/h/.config/goose/config.yaml"
	r := scan.Result{Services: []scan.Service{
		entry("goose", "user", file, "github", provider.Entry{Definition: service.Definition{Command: "npx"}}),
		entry("goose", "user", file, "plain", provider.Entry{Definition: service.Definition{Command: "plain-mcp"}}),
	}}
	p := Propose(r, nil, t.TempDir(), "/h")
	var asked []string
	p.Distribute(r, nil, DistributeOptions{
		Render: func(string, provider.Entry) ([]byte, error) { return []byte("{}"), nil },
		Refusal: func(loc provider.Location, e provider.Entry) error {
			asked = append(asked, loc.File+" "+e.Name)
			if e.Name == "github" {
				return errors.New("extensions.github (line 7) uses YAML anchors or aliases")
			}
			return nil
		},
		Home: "/h",
	})
	if len(p.Links) != 1 || strings.Join(p.Links[0].Services, ",") != "plain" {
		t.Fatalf("links = %+v, want one link with plain only", p.Links)
	}
	if len(p.Unlinked) != 1 || !strings.Contains(p.Unlinked[0].What, `"github"`) ||
		p.Unlinked[0].Why != "chronicle cannot edit it in goose: extensions.github (line 7) uses YAML anchors or aliases" {
		t.Fatalf("unlinked = %+v", p.Unlinked)
	}
	if strings.Join(asked, ";") != file+" github;"+file+" plain" {
		t.Errorf("the editor was asked about %q", asked)
	}
}
