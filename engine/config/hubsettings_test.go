package config

import (
	"strings"
	"testing"
)

// TestServiceHubSettings decodes how the hub runs a service: inherit_env,
// sessions, allow_sampling and allow_elicitation.
func TestServiceHubSettings(t *testing.T) {
	cfg := mustLoad(t, `
service "notes" {
  command     = "notes-mcp"
  inherit_env = ["NOTES_TOKEN", "NOTES_HOME"]
  sessions    = "per-client"
  allow_sampling    = false
  allow_elicitation = false
}
service "all" {
  command     = "x"
  inherit_env = true
}
service "plain" {
  command = "y"
}
`)
	got := map[string]int{}
	for i, s := range cfg.Services {
		got[s.Name] = i
	}
	notes, all, plain := cfg.Services[got["notes"]], cfg.Services[got["all"]], cfg.Services[got["plain"]]
	if strings.Join(notes.InheritEnv, ",") != "NOTES_TOKEN,NOTES_HOME" || notes.InheritAllEnv || !notes.PerClientSessions() || !notes.RefuseSampling || !notes.RefuseElicitation {
		t.Errorf("notes: %+v", notes)
	}
	if !all.InheritAllEnv || all.InheritEnv != nil {
		t.Errorf("all: %+v", all)
	}
	if plain.InheritAllEnv || plain.InheritEnv != nil || plain.PerClientSessions() || plain.RefuseSampling || plain.RefuseElicitation {
		t.Errorf("plain has settings it did not declare: %+v", plain)
	}

	for src, want := range map[string]string{
		"service \"a\" {\n command = \"x\"\n sessions = \"each\"\n}":             `"each" is not one of`,
		"service \"a\" {\n url = \"https://x.test/mcp\"\n inherit_env = true\n}": "applies to services started with command",
		"service \"a\" {\n command = \"x\"\n inherit_env = [\"A=B\"]\n}":         "cannot be an environment variable name",
		"service \"a\" {\n command = \"x\"\n allow_sampling = \"sometimes\"\n}":  "bool required",
	} {
		if _, diags := load(t, src, nil, nil); !strings.Contains(diags.Error(), want) {
			t.Errorf("%s: %v, want %q", src, diags, want)
		}
	}
}
