package upstream

import (
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// hubEnviron is the environment of a hub whose user exported tokens for
// several services, as the README tells them to.
func hubEnviron() []string {
	return []string{"PATH=/usr/bin:/bin", "HOME=/home/dev", "LANG=C.UTF-8", "LC_ALL=C", "XDG_CONFIG_HOME=/home/dev/.config",
		"https_proxy=http://proxy:3128", "NOTES_TOKEN=notes-secret", "LINEAR_TOKEN=linear-secret", "EDITOR=vim"}
}

func getenvTool(t *testing.T, p *Pool, service, name string) string {
	t.Helper()
	res, err := p.Get(service).CallTool(testContext(t), "getenv", map[string]any{"name": name})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(mcp.TextContent).Text
}

// TestUpstreamGetsAMinimalEnvironment starts real children: a service that
// declares only FAKE_TOKEN cannot read NOTES_TOKEN from the hub's
// environment, unless inherit_env passes it.
func TestUpstreamGetsAMinimalEnvironment(t *testing.T) {
	plain := selfSpec("plain", "normal")
	plain.Env["FAKE_TOKEN"] = secret.Literal("fake-value")
	named := selfSpec("named", "normal")
	named.InheritEnv = []string{"NOTES_TOKEN"}
	all := selfSpec("all", "normal")
	all.InheritAllEnv = true
	p, _ := newTestPool(t, PoolOptions{Environ: hubEnviron}, plain, named, all)

	for name, want := range map[string]string{
		"FAKE_TOKEN": "fake-value", "NOTES_TOKEN": "<unset>", "LINEAR_TOKEN": "<unset>", "EDITOR": "<unset>",
		"PATH": "/usr/bin:/bin", "HOME": "/home/dev", "LC_ALL": "C", "XDG_CONFIG_HOME": "/home/dev/.config", "https_proxy": "http://proxy:3128",
	} {
		if got := getenvTool(t, p, "plain", name); got != want {
			t.Errorf("plain: %s = %q, want %q", name, got, want)
		}
	}
	if got := getenvTool(t, p, "named", "NOTES_TOKEN"); got != "notes-secret" {
		t.Errorf("inherit_env = [NOTES_TOKEN]: %q", got)
	}
	if got := getenvTool(t, p, "named", "LINEAR_TOKEN"); got != "<unset>" {
		t.Errorf("inherit_env = [NOTES_TOKEN] also passed LINEAR_TOKEN: %q", got)
	}
	if got := getenvTool(t, p, "all", "LINEAR_TOKEN"); got != "linear-secret" {
		t.Errorf("inherit_env = true: %q", got)
	}
}

// TestWithheldVariablesAreNamedWhenAChildFailsToStart checks the hint a
// user needs when a server exits because a variable it expects is missing.
func TestWithheldVariablesAreNamedWhenAChildFailsToStart(t *testing.T) {
	p, log := newTestPool(t, PoolOptions{Environ: hubEnviron, StartTimeout: 10 * time.Second}, selfSpec("dies", "exit"))
	if _, err := p.Get("dies").Catalog(testContext(t)); err == nil {
		t.Fatal("a child that exits at once started")
	}
	if !strings.Contains(log.String(), "withheld: EDITOR, LINEAR_TOKEN, NOTES_TOKEN") {
		t.Errorf("the log does not name the withheld variables:\n%s", log)
	}
	if strings.Contains(log.String(), "notes-secret") {
		t.Errorf("the log shows a withheld value:\n%s", log)
	}
}
