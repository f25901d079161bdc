package state

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// TestServiceHubSettingsRoundTrip checks the additive hub settings of a
// service survive the state file, and are absent when not set.
func TestServiceHubSettingsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s := New()
	s.Services["notes"] = service.Service{Name: "notes", Definition: service.Definition{Transport: "stdio", Command: "n"}, Enabled: true,
		InheritEnv: []string{"NOTES_TOKEN"}, Sessions: service.PerClient, RefuseSampling: true, RefuseElicitation: true}
	s.Services["all"] = service.Service{Name: "all", Definition: service.Definition{Transport: "stdio", Command: "a"}, Enabled: true, InheritAllEnv: true}
	s.Services["plain"] = service.Service{Name: "plain", Definition: service.Definition{Transport: "stdio", Command: "p"}, Enabled: true}
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Services, s.Services) {
		t.Errorf("round trip changed the services:\n got %+v\nwant %+v", got.Services, s.Services)
	}
	raw, _ := os.ReadFile(path)
	if n := strings.Count(string(raw), "inherit_"); n != 2 {
		t.Errorf("inherit settings written %d times, want 2 (absent when unset):\n%s", n, raw)
	}
}
