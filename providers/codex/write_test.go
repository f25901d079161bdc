package codex

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	pt "github.com/chronicle-dev/chronicle/providers/providertest"
)

var added = provider.Entry{
	Name:       "github",
	Definition: service.Definition{Transport: service.Stdio, Command: "npx", Args: []secret.Value{lit("-y"), lit("@modelcontextprotocol/server-github")}, Env: map[string]secret.Value{"GITHUB_PERSONAL_ACCESS_TOKEN": ref("GITHUB_PERSONAL_ACCESS_TOKEN")}},
	Enabled:    true,
}

func TestPutThenRemoveGivesBackTheBytes(t *testing.T) {
	docs := map[string][]byte{
		"home fixture":    fixture(t, "home"),
		"project fixture": fixture(t, "project"),
		"no mcp_servers":  []byte("model = \"o3\"\n\n[features]\nrmcp_client = true\n"),
		"empty":           {},
	}
	for name, doc := range docs {
		for _, server := range []string{"added", "weird.name"} {
			t.Run(name+"/"+server, func(t *testing.T) {
				_, loc := home(t, doc)
				e := added
				e.Name = server
				if err := pt.Put(New(), loc, e); err != nil {
					t.Fatal(err)
				}
				entries, err := pt.Read(New(), loc)
				if err != nil {
					t.Fatal(err)
				}
				if d := entryDiff(e, entries[len(entries)-1]); d != "" {
					t.Errorf("read back (-want +got):\n%s", d)
				}
				if err := pt.Remove(New(), loc, server); err != nil {
					t.Fatal(err)
				}
				if got := readFile(t, loc.File); !bytes.Equal(got, doc) {
					t.Errorf("put then remove:\n got %q\nwant %q", got, doc)
				}
			})
		}
	}
}

func TestPutReplacesOnlyThatEntry(t *testing.T) {
	doc := string(fixture(t, "home"))
	_, loc := home(t, []byte(doc))
	e := provider.Entry{
		Name:       "github",
		Definition: service.Definition{Transport: service.HTTP, URL: lit("https://api.githubcopilot.com/mcp/"), Headers: map[string]secret.Value{"Authorization": bearer("GH_TOKEN")}},
		Enabled:    true,
		Timeout:    30 * time.Second,
	}
	if err := pt.Put(New(), loc, e); err != nil {
		t.Fatal(err)
	}
	i := strings.Index(doc, "[mcp_servers.github]")
	j := strings.Index(doc, "\n# parked")
	want := doc[:i] + `[mcp_servers.github]
url = "https://api.githubcopilot.com/mcp/"
bearer_token_env_var = "GH_TOKEN"
tool_timeout_sec = 30
` + doc[j:]
	if got := string(readFile(t, loc.File)); got != want {
		t.Errorf("file after replace:\n%s\nwant:\n%s", got, want)
	}
}

func TestPutKeepsKeysChronicleDoesNotOwn(t *testing.T) {
	doc := string(fixture(t, "home"))
	_, loc := home(t, []byte(doc))
	entries, err := pt.Read(New(), loc)
	if err != nil {
		t.Fatal(err)
	}
	sentry := entries[3]
	sentry.Enabled = true
	if err := pt.Put(New(), loc, sentry); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(doc, "enabled = false\n", "", 1)
	if got := string(readFile(t, loc.File)); got != want {
		t.Errorf("file after enabling sentry:\n%s\nwant:\n%s", got, want)
	}
}

func TestPutCreatesTheFile(t *testing.T) {
	_, loc := home(t, nil)
	if err := pt.Put(New(), loc, added); err != nil {
		t.Fatal(err)
	}
	want := "[mcp_servers.github]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-github\"]\nenv_vars = [\"GITHUB_PERSONAL_ACCESS_TOKEN\"]\n"
	if got := string(readFile(t, loc.File)); got != want {
		t.Errorf("file = %q, want %q", got, want)
	}
}

func TestAnUnparsableFileIsAParseError(t *testing.T) {
	bad := []byte("model = \"o3\"\n\n[mcp_servers.github]\ncommand = \"npx\"\nargs = [\"-y\",\n")
	_, loc := home(t, bad)
	_, readErr := pt.Read(New(), loc)
	_, editErr := pt.Edit(New(), loc.File, pt.Set(loc, added))
	for name, err := range map[string]error{"read": readErr, "edit": editErr} {
		var pe *provider.ParseError
		if !errors.As(err, &pe) || pe.Line == 0 || pe.File != loc.File {
			t.Errorf("%s: err = %v, want a *provider.ParseError with a line", name, err)
		}
	}
}

func TestEditRefusesWhatCodexCannotReference(t *testing.T) {
	_, loc := home(t, fixture(t, "home"))
	e := added
	e.Env = map[string]secret.Value{"TOKEN": ref("GITHUB_TOKEN")}
	_, err := pt.Edit(New(), loc.File, pt.Set(loc, e))
	if err == nil || !strings.Contains(err.Error(), loc.File+": [mcp_servers.github]: env.TOKEN") {
		t.Errorf("err = %v, want an error naming the file, the entry and the field", err)
	}
}

// TestEditRefusesInlineServers: servers written as an inline table, in
// either place, are an error of the edit (which plan finds by making the
// edit in memory), naming the file, the entry and the reason.
func TestEditRefusesInlineServers(t *testing.T) {
	for _, doc := range []string{
		"mcp_servers = { docs = { url = \"https://docs.example.com/mcp\" } }\n",
		"[mcp_servers]\ndocs = { url = \"https://docs.example.com/mcp\" }\n",
	} {
		_, loc := home(t, []byte(doc))
		if entries, err := pt.Read(New(), loc); err != nil || len(entries) != 1 {
			t.Fatalf("%q reads as %v, %v; want its one server", doc, entries, err)
		}
		docs := added
		docs.Name = "docs"
		_, err := pt.Edit(New(), loc.File, pt.Set(loc, docs))
		if err == nil || !strings.Contains(err.Error(), loc.File+": [mcp_servers.docs]: ") ||
			!strings.Contains(err.Error(), "written inline") {
			t.Errorf("edit of %q: err = %v, want the file, the entry and why", doc, err)
		}
	}
}

// TestBatchEditOfOneFile sets, replaces and removes several servers in one
// Edit: each ends as intended, and every other byte stays.
func TestBatchEditOfOneFile(t *testing.T) {
	doc := fixture(t, "home")
	_, loc := home(t, doc)
	second := added
	second.Name = "weird.name"
	entries, err := pt.Read(New(), loc)
	if err != nil {
		t.Fatal(err)
	}
	chronova := entries[0]
	chronova.Enabled = false
	if err := pt.Apply(New(), loc.File, pt.Set(loc, added), pt.Set(loc, second), pt.Set(loc, chronova), pt.Unset(loc, "sentry")); err != nil {
		t.Fatal(err)
	}
	got, err := pt.Read(New(), loc)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]provider.Entry{}
	for _, e := range got {
		byName[e.Name] = e
	}
	if _, ok := byName["sentry"]; ok {
		t.Error("sentry is still there")
	}
	for _, want := range []provider.Entry{added, second, chronova} {
		if d := entryDiff(want, byName[want.Name]); d != "" {
			t.Errorf("%s (-want +got):\n%s", want.Name, d)
		}
	}
	if !strings.Contains(string(readFile(t, loc.File)), "startup_timeout_sec = 20") {
		t.Error("chronova lost the key chronicle does not own")
	}
	if err := pt.Apply(New(), loc.File, pt.Unset(loc, added.Name), pt.Unset(loc, second.Name)); err != nil {
		t.Fatal(err)
	}
	if after := string(readFile(t, loc.File)); !strings.HasPrefix(after, string(doc[:strings.Index(string(doc), "[mcp_servers.chronova]")])) {
		t.Errorf("the part of the file before the servers changed:\n%s", after)
	}
}
