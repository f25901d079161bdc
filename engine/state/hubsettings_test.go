package state

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
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
	secretRef := secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "CORP_SECRET"})
	s.Services["corp"] = service.Service{Name: "corp", Definition: service.Definition{Transport: "http", URL: secret.Literal("https://corp.example/mcp")}, Enabled: true,
		OAuth: &service.OAuth{ClientID: "c", ClientSecret: secretRef, Scopes: []string{"read"}, CallbackPort: 33418, ClientMetadataURL: "https://c.example/m.json"}}
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
	if !strings.Contains(string(raw), `"callback_port": 33418`) || strings.Count(string(raw), `"oauth"`) != 1 {
		t.Errorf("the oauth block is not in the state file once:\n%s", raw)
	}
	if n := strings.Count(string(raw), "inherit_"); n != 2 {
		t.Errorf("inherit settings written %d times, want 2 (absent when unset):\n%s", n, raw)
	}
}

// TestExposureRoundTrip checks the hub's exposure settings and profiles
// survive the state file as additive fields of format 2, absent when unset,
// and that a profile is an address like any other.
func TestExposureRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s := New()
	s.Hub = &Hub{Listen: "127.0.0.1:7311", Tools: "auto", SearchThreshold: 20000, Always: []string{"notes__*"}}
	s.Profiles["review"] = Profile{Services: []string{"github"}, Tools: []string{"github__*pull_request*"}, Exposure: "search"}
	if err := s.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Hub, s.Hub) || !reflect.DeepEqual(got.Profiles, s.Profiles) {
		t.Errorf("round trip: hub %+v profiles %+v", got.Hub, got.Profiles)
	}
	raw, _ := os.ReadFile(path)
	for _, want := range []string{`"search_threshold": 20000`, `"profiles": {`, `"exposure": "search"`, `"version": 4`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("state file lacks %s:\n%s", want, raw)
		}
	}
	if d, err := got.Describe("profile.review"); err != nil || !strings.Contains(d, `tools = ["github__*pull_request*"]`) {
		t.Errorf("describe profile.review: %q, %v", d, err)
	}
	if err := got.Forget("profile.review"); err != nil || len(got.Profiles) != 0 {
		t.Errorf("forget profile.review: %v, %v", err, got.Profiles)
	}

	plain := New()
	plain.Hub = &Hub{Listen: "127.0.0.1:7311"}
	path = filepath.Join(t.TempDir(), "state.json")
	if err := plain.Save(path); err != nil {
		t.Fatal(err)
	}
	raw, _ = os.ReadFile(path)
	for _, absent := range []string{"profiles", "search_threshold", `"tools"`, "always"} {
		if strings.Contains(string(raw), absent) {
			t.Errorf("unset %s written:\n%s", absent, raw)
		}
	}
}
