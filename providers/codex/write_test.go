package codex

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
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
				if err := New().Put(loc, e); err != nil {
					t.Fatal(err)
				}
				entries, err := New().Read(loc)
				if err != nil {
					t.Fatal(err)
				}
				if d := entryDiff(e, entries[len(entries)-1]); d != "" {
					t.Errorf("read back (-want +got):\n%s", d)
				}
				if err := New().Remove(loc, server); err != nil {
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
	if err := New().Put(loc, e); err != nil {
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
	entries, err := New().Read(loc)
	if err != nil {
		t.Fatal(err)
	}
	sentry := entries[3]
	sentry.Enabled = true
	if err := New().Put(loc, sentry); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(doc, "enabled = false\n", "", 1)
	if got := string(readFile(t, loc.File)); got != want {
		t.Errorf("file after enabling sentry:\n%s\nwant:\n%s", got, want)
	}
}

func TestPutCreatesTheFile(t *testing.T) {
	_, loc := home(t, nil)
	if err := New().Put(loc, added); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(loc.File)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", info.Mode().Perm())
	}
	want := "[mcp_servers.github]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-github\"]\nenv_vars = [\"GITHUB_PERSONAL_ACCESS_TOKEN\"]\n"
	if got := string(readFile(t, loc.File)); got != want {
		t.Errorf("file = %q, want %q", got, want)
	}
}

func TestWritesLeaveAnUnparsableFileAlone(t *testing.T) {
	bad := []byte("model = \"o3\"\n\n[mcp_servers.github]\ncommand = \"npx\"\nargs = [\"-y\",\n")
	_, loc := home(t, bad)
	for name, err := range map[string]error{
		"put":    New().Put(loc, added),
		"remove": New().Remove(loc, "github"),
	} {
		var pe *provider.ParseError
		if !errors.As(err, &pe) || pe.Line == 0 || pe.File != loc.File {
			t.Errorf("%s: err = %v, want a *provider.ParseError with a line", name, err)
		}
	}
	if got := readFile(t, loc.File); !bytes.Equal(got, bad) {
		t.Errorf("file changed: %q", got)
	}
}

func TestPutRefusesBeforeTouchingTheFile(t *testing.T) {
	doc := fixture(t, "home")
	_, loc := home(t, doc)
	e := added
	e.Env = map[string]secret.Value{"TOKEN": ref("GITHUB_TOKEN")}
	err := New().Put(loc, e)
	if err == nil || !strings.Contains(err.Error(), loc.File) {
		t.Errorf("err = %v, want an error naming the file", err)
	}
	if got := readFile(t, loc.File); !bytes.Equal(got, doc) {
		t.Errorf("file changed: %q", got)
	}
}
