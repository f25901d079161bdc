package config

import (
	"strings"
	"testing"
)

// TestExposureSettings decodes hub.tools, search_threshold and always,
// profiles, and a link's profile and transport.
func TestExposureSettings(t *testing.T) {
	cfg := mustLoad(t, `
service "github" { command = "gh-mcp" }
service "notes" { command = "notes-mcp" }
hub {
  tools            = "auto"
  search_threshold = 20000
  always           = ["notes__*", "github__get_me"]
  max_sessions     = 64
}
profile "review" {
  services = ["github"]
  tools    = ["github__*pull_request*"]
  exposure = "search"
}
profile "everything" {}
link "agents" {
  tools     = ["claude"]
  hub       = true
  profile   = "review"
  transport = "http"
}
link "plain" {
  tools = ["cursor"]
  hub   = true
}
`)
	h := cfg.Hub
	if h.Tools != ExposeAuto || h.SearchThreshold != 20000 || strings.Join(h.Always, ",") != "notes__*,github__get_me" || h.MaxSessions != 64 {
		t.Errorf("hub settings: %+v", h)
	}
	r := cfg.Profile("review")
	if r == nil || strings.Join(r.Services, ",") != "github" || strings.Join(r.Tools, ",") != "github__*pull_request*" || r.Exposure != ExposeSearch {
		t.Errorf("profile review: %+v", r)
	}
	if e := cfg.Profile("everything"); e == nil || e.Services != nil || e.Tools != nil || e.Exposure != "" {
		t.Errorf("profile everything: %+v", e)
	}
	byName := map[string]*Link{}
	for _, l := range cfg.Links {
		byName[l.Name] = l
	}
	if l := byName["agents"]; l.Profile != "review" || l.Transport != TransportHTTP {
		t.Errorf("link agents: %+v", l)
	}
	if l := byName["plain"]; l.Profile != "" || l.Transport != TransportStdio {
		t.Errorf("link plain: %+v", l)
	}

	// Unset, the hub settings stay zero: the state records only what was
	// written, so an existing state sees no change.
	plain := mustLoad(t, "hub {}\n")
	if plain.Hub.Tools != "" || plain.Hub.SearchThreshold != 0 || plain.Hub.Always != nil {
		t.Errorf("unset hub settings: %+v", plain.Hub)
	}
}

// TestExposureDiagnostics checks each mistake is reported where it was
// made, with a suggestion where one is close.
func TestExposureDiagnostics(t *testing.T) {
	for src, want := range map[string]string{
		`hub { tools = "serach" }`:          `"serach" is not one of ["all" "search" "auto"]. Did you mean "search"?`,
		`hub { search_threshold = 0 }`:      "search_threshold is a number of tokens from 1",
		`hub { search_threshold = 1.5 }`:    "must be a whole number",
		`hub { max_sessions = 0 }`:          "max_sessions is a number of client sessions from 1 to 100000, not 0 (the default is 512)",
		`hub { always = ["[x"] }`:           `"[x" is not a valid glob pattern`,
		`hub { alway = ["x"] }`:             `Did you mean "always"?`,
		`profile "p" { exposure = "some" }`: `"some" is not one of`,
		`profile "p" { service = ["x"] }`:   `Did you mean "services"?`,
		`profile "p" { services = ["githb"] }` + "\nservice \"github\" { command = \"x\" }": `The profile "p" names the service "githb", which no service block declares. Did you mean "github"?`,
		`profile "P_1" {}`:                         "Invalid profile name",
		`profile "p" {}` + "\n" + `profile "p" {}`: `Duplicate profile "p"`,
		`link "l" {` + "\n tools = [\"claude\"]\n hub = true\n profile = \"reveiw\"\n}\nprofile \"review\" {}": `The link "l" serves the profile "reveiw", which no profile block declares. Did you mean "review"?`,
		`link "l" {` + "\n tools = [\"claude\"]\n skills = [\"*\"]\n profile = \"p\"\n}\nprofile \"p\" {}":     "needs hub = true for it",
		`link "l" {` + "\n tools = [\"claude\"]\n hub = true\n transport = \"sse\"\n}":                         `"sse" is not one of ["stdio" "http"]`,
		`link "l" {` + "\n tools = [\"claude\"]\n hub = true\n transprt = \"http\"\n}":                         `Did you mean "transport"?`,
	} {
		_, diags := load(t, src, nil, nil)
		if !diags.HasErrors() || !strings.Contains(diags.Error(), want) {
			t.Errorf("%s\n got: %v\nwant: %s", src, diags, want)
		}
	}
}
