package service

import (
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

func TestDefinitionEqual(t *testing.T) {
	token, _ := secret.ParseRef("env:GH_TOKEN")
	other, _ := secret.ParseRef("env:OTHER")
	base := func() Definition {
		return Definition{
			Transport: Stdio, Command: "npx", Args: []secret.Value{secret.Literal("-y"), secret.Literal("server-github")},
			Env: map[string]secret.Value{"GITHUB_TOKEN": secret.FromRef(token)},
		}
	}
	if !base().Equal(base()) {
		t.Fatal("a definition differs from itself")
	}
	for name, change := range map[string]func(*Definition){
		"transport":     func(d *Definition) { d.Transport = HTTP },
		"command":       func(d *Definition) { d.Command = "node" },
		"args":          func(d *Definition) { d.Args = d.Args[:1] },
		"env reference": func(d *Definition) { d.Env = map[string]secret.Value{"GITHUB_TOKEN": secret.FromRef(other)} },
		"env literal":   func(d *Definition) { d.Env = map[string]secret.Value{"GITHUB_TOKEN": secret.Literal("ghp_x")} },
		"cwd":           func(d *Definition) { d.Cwd = "/tmp" },
		"url":           func(d *Definition) { d.URL = secret.Literal("https://x") },
		"headers":       func(d *Definition) { d.Headers = map[string]secret.Value{"A": secret.Literal("b")} },
	} {
		d := base()
		change(&d)
		if d.Equal(base()) || base().Equal(d) {
			t.Errorf("%s: a changed definition compares equal", name)
		}
	}
}

func TestOriginParts(t *testing.T) {
	for origin, want := range map[string][3]string{
		"claude:user":              {"claude", "user", ""},
		"codex:project:weird.name": {"codex", "project", "weird.name"},
		"nonsense":                 {"", "", ""},
	} {
		tool, scope, original := Service{Origin: origin}.OriginParts()
		if [3]string{tool, scope, original} != want {
			t.Errorf("%q: got %q %q %q, want %q", origin, tool, scope, original, want)
		}
	}
}

func TestSpellingsOfOneServer(t *testing.T) {
	tok, _ := secret.ParseRef("env:GH_TOKEN")
	explicit := Definition{Transport: Stdio, Command: "npx", Args: []secret.Value{secret.Literal("-y")}, Env: map[string]secret.Value{}}
	implicit := Definition{Command: "npx", Args: []secret.Value{secret.Literal("-y")}}
	if !explicit.Same(implicit) || len(explicit.Differences(implicit)) != 0 {
		t.Fatalf("an explicit default made two servers: %v", explicit.Differences(implicit))
	}
	slash := Definition{URL: secret.Literal("https://api.example.com/mcp/")}
	bare := Definition{Transport: HTTP, URL: secret.Literal("https://api.example.com/mcp")}
	if !slash.Same(bare) {
		t.Fatal("a trailing slash made two servers")
	}
	a := Definition{Command: "npx", Env: map[string]secret.Value{"GITHUB_TOKEN": secret.FromRef(tok), "LOG": secret.Literal("x")}}
	b := Definition{Command: "npx", Env: map[string]secret.Value{"GITHUB_TOKEN": secret.Literal("ghp_x"), "LOG": secret.Literal("x")}}
	if d := a.Differences(b); len(d) != 1 || d[0] != "env.GITHUB_TOKEN" {
		t.Fatalf("differences %v", d)
	}
	if !a.Resolves(b) || b.Resolves(a) {
		t.Fatal("a literal where the declaration has a reference is its resolution, not the other way round")
	}
	bearer := Definition{URL: secret.Literal("https://x"), Headers: map[string]secret.Value{"Authorization": secret.Concat(secret.Literal("Bearer "), secret.FromRef(tok))}}
	lit := Definition{URL: secret.Literal("https://x"), Headers: map[string]secret.Value{"Authorization": secret.Literal("Bearer abc")}}
	basic := Definition{URL: secret.Literal("https://x"), Headers: map[string]secret.Value{"Authorization": secret.Literal("Basic abc")}}
	if !bearer.Resolves(lit) || bearer.Resolves(basic) {
		t.Fatal("the text around a reference must match")
	}
}

// What the hub applies live keeps the upstream; everything that shapes the
// process or connection replaces it.
func TestSameUpstream(t *testing.T) {
	base := func() Service {
		return Service{Name: "gh", Definition: Definition{Transport: Stdio, Command: "npx"}, Enabled: true, Timeout: 60e9}
	}
	for name, tc := range map[string]struct {
		change func(*Service)
		same   bool
	}{
		"timeout":            {func(s *Service) { s.Timeout = 5e9 }, true},
		"description":        {func(s *Service) { s.Description = "GitHub" }, true},
		"origin":             {func(s *Service) { s.Origin = "claude:user" }, true},
		"project":            {func(s *Service) { s.Project = "/src/app" }, true},
		"refuse sampling":    {func(s *Service) { s.RefuseSampling = true }, false},
		"refuse elicitation": {func(s *Service) { s.RefuseElicitation = true }, false},
		"command":            {func(s *Service) { s.Command = "node" }, false},
		"args":               {func(s *Service) { s.Args = []secret.Value{secret.Literal("-y")} }, false},
		"inherit_env":        {func(s *Service) { s.InheritEnv = []string{"PATH"} }, false},
		"inherit all env":    {func(s *Service) { s.InheritAllEnv = true }, false},
		"sessions":           {func(s *Service) { s.Sessions = PerClient }, false},
		"enabled":            {func(s *Service) { s.Enabled = false }, false},
		"name":               {func(s *Service) { s.Name = "gl" }, false},
	} {
		s := base()
		tc.change(&s)
		if got := s.SameUpstream(base()); got != tc.same || base().SameUpstream(s) != tc.same {
			t.Errorf("%s: SameUpstream = %v, want %v", name, got, tc.same)
		}
	}
}

// The transport a server is reached by is the one it names, else the one
// its spelling implies: the hub dials by the same rule Normal compares by.
func TestVia(t *testing.T) {
	for _, c := range []struct {
		d    Definition
		want string
	}{
		{Definition{Command: "npx"}, Stdio},
		{Definition{URL: secret.Literal("https://api.example.com/mcp")}, HTTP},
		{Definition{Transport: SSE, URL: secret.Literal("https://api.example.com/sse")}, SSE},
		{Definition{}, Stdio},
	} {
		if got := c.d.Via(); got != c.want || c.d.Normal().Transport != c.want {
			t.Errorf("%+v: Via %q, Normal %q; want %q", c.d, got, c.d.Normal().Transport, c.want)
		}
	}
}
