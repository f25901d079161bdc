package codex

import (
	"strings"
	"testing"
	"time"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

func TestRender(t *testing.T) {
	tests := []struct {
		name string
		e    provider.Entry
		want string
	}{
		{"stdio with env_vars", provider.Entry{
			Name:       "github",
			Definition: service.Definition{Transport: service.Stdio, Command: "npx", Args: []secret.Value{lit("-y"), lit("@modelcontextprotocol/server-github")}, Env: map[string]secret.Value{"GITHUB_TOKEN": ref("GITHUB_TOKEN"), "LOG": lit("debug")}, Cwd: "/srv"},
			Enabled:    true,
			Timeout:    60 * time.Second,
		}, `[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
cwd = "/srv"
env = { LOG = "debug" }
env_vars = ["GITHUB_TOKEN"]
tool_timeout_sec = 60
`},
		{"http with headers", provider.Entry{
			Name: "linear",
			Definition: service.Definition{Transport: service.HTTP, URL: lit("https://mcp.linear.app/mcp"), Headers: map[string]secret.Value{
				"Authorization": bearer("LINEAR_TOKEN"),
				"X-Team":        ref("LINEAR_TEAM"),
				"X-Plain":       lit("yes ${not a ref}"),
			}},
			EnabledTools:  []string{},
			DisabledTools: []string{"delete_*"},
			Timeout:       1500 * time.Millisecond,
		}, `[mcp_servers.linear]
url = "https://mcp.linear.app/mcp"
bearer_token_env_var = "LINEAR_TOKEN"
http_headers = { X-Plain = "yes ${not a ref}" }
env_http_headers = { X-Team = "LINEAR_TEAM" }
enabled = false
enabled_tools = []
disabled_tools = ["delete_*"]
tool_timeout_sec = 1.5
`},
		{"quoted name, transport inferred", provider.Entry{
			Name:       "weird.name",
			Definition: service.Definition{Command: "x"},
			Enabled:    true,
		}, "[mcp_servers.\"weird.name\"]\ncommand = \"x\"\n"},
		{"bearer in another header", provider.Entry{
			Name:       "h",
			Definition: service.Definition{URL: lit("https://h"), Headers: map[string]secret.Value{"X-Auth": ref("TOKEN")}},
			Enabled:    true,
		}, "[mcp_servers.h]\nurl = \"https://h\"\nenv_http_headers = { X-Auth = \"TOKEN\" }\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := New().Render(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Render:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestRenderRefusesWhatCodexCannotReference(t *testing.T) {
	file := secret.FromRef(secret.Ref{Kind: secret.KindFile, Name: "~/.token"})
	stdio := func(change func(*provider.Entry)) provider.Entry {
		e := provider.Entry{Name: "s", Definition: service.Definition{Transport: service.Stdio, Command: "x"}, Enabled: true}
		change(&e)
		return e
	}
	tests := []struct {
		name    string
		e       provider.Entry
		mention string
	}{
		{"renamed variable", stdio(func(e *provider.Entry) { e.Env = map[string]secret.Value{"TOKEN": ref("GITHUB_TOKEN")} }), "own name"},
		{"secret in args", stdio(func(e *provider.Entry) { e.Args = []secret.Value{secret.Concat(lit("--token="), ref("T"))} }), "args"},
		{"secret in url", provider.Entry{Name: "s", Definition: service.Definition{URL: ref("URL")}}, "url"},
		{"file ref in env", stdio(func(e *provider.Entry) { e.Env = map[string]secret.Value{"T": file} }), "file"},
		{"file ref as bearer", stdio(func(e *provider.Entry) {
			e.Headers = map[string]secret.Value{"Authorization": secret.Concat(lit("Bearer "), file)}
		}), "whole value"},
		{"partial header", stdio(func(e *provider.Entry) {
			e.Headers = map[string]secret.Value{"X-Key": secret.Concat(lit("key="), ref("K"))}
		}), "whole value"},
		{"sse", provider.Entry{Name: "s", Definition: service.Definition{Transport: service.SSE, URL: lit("https://s")}}, "SSE"},
		{"extension", provider.Entry{Name: "s", Definition: service.Definition{Transport: service.Extension}}, "extension"},
		{"stdio without command", provider.Entry{Name: "s", Definition: service.Definition{Transport: service.Stdio, URL: lit("https://s")}}, "command"},
		{"nothing", provider.Entry{Name: "s"}, "neither"},
		{"no name", provider.Entry{Definition: service.Definition{Command: "x"}}, "no name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := New().Render(tt.e)
			if err == nil || !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("Render = %q, %v; want an error mentioning %q", got, err, tt.mention)
			}
		})
	}
}
