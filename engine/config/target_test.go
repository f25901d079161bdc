package config

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

func TestTargetDecoding(t *testing.T) {
	cfg := mustLoad(t, `
service "docs" {
  command = "npx"
  args    = ["-y", "docs-mcp"]
  env     = { LOG = "info" }
  timeout = "30s"

  target "cursor" {
    args = ["-y", "docs-mcp", "--context=ide"]
    env  = { TOKEN = secret("env:DOCS_TOKEN") }
  }
  target "opencode" {
    timeout        = "10s"
    enabled_tools  = ["search"]
    disabled_tools = []
    extra = {
      oauth  = false
      retry  = 3
      ratio  = 0.5
      nested = { list = ["a", 1, true, null], "x-y" = {} }
    }
  }
}
service "remote" {
  url = "https://example.com/mcp"
  target "gemini" {
    url     = "https://example.com/mcp?client=gemini"
    headers = { Authorization = "Bearer ${secret("env:T")}" }
  }
}
`)
	docs := cfg.Service("docs")
	cursor := cfg.Target("docs", "cursor")
	if cursor == nil || !cursor.Has("args") || !cursor.Has("env") || cursor.Has("timeout") || cursor.Has("extra") {
		t.Fatalf("cursor target = %+v", cursor)
	}
	def := cfg.ToolDefinition(docs, "cursor")
	if len(def.Args) != 3 || def.Args[2].HCL() != "--context=ide" || def.Env["TOKEN"].HCL() != `${secret("env:DOCS_TOKEN")}` || len(def.Env) != 1 {
		t.Fatalf("cursor definition = %+v (a target's map replaces the service's whole)", def)
	}
	if got := cfg.ToolDefinition(docs, "claude"); len(got.Args) != 2 || got.Env["LOG"].HCL() != "info" {
		t.Fatalf("a tool without a target gets the service's definition, got %+v", got)
	}
	oc := cfg.Target("docs", "opencode")
	if oc.Timeout != 10*time.Second || len(oc.EnabledTools) != 1 || len(oc.DisabledTools) != 0 || !oc.Has("disabled_tools") {
		t.Fatalf("opencode target = %+v", oc)
	}
	want := provider.Extra{"oauth": false, "retry": int64(3), "ratio": 0.5,
		"nested": map[string]any{"list": []any{"a", int64(1), true, nil}, "x-y": map[string]any{}}}
	if !oc.Extra.Equal(want) {
		t.Fatalf("extra = %#v, want %#v", oc.Extra, want)
	}
	if _, ok := oc.Extra["retry"].(int64); !ok {
		t.Errorf("a whole number in extra is %T, want int64", oc.Extra["retry"])
	}
	if cfg.Target("docs", "claude") != nil {
		t.Fatal("a target that is not declared was found")
	}
	rd := cfg.ToolDefinition(cfg.Service("remote"), "gemini")
	if rd.URL.HCL() != "https://example.com/mcp?client=gemini" || rd.Headers["Authorization"].HCL() != `Bearer ${secret("env:T")}` {
		t.Fatalf("remote gemini definition = %+v", rd)
	}
	// The hub runs the service as the service block says.
	if docs.Timeout != 30*time.Second || len(docs.Args) != 2 {
		t.Fatalf("the service itself changed: %+v", docs)
	}
}

func TestTargetDiagnostics(t *testing.T) {
	const head = "service \"x\" {\n  command = \"npx\"\n"
	tests := []struct {
		name, src, summary, detail string
		line                       int
	}{
		{"unknown tool", head + "  target \"cursr\" {}\n}\n", "Unknown tool", `Did you mean "cursor"?`, 3},
		{"unknown attribute", head + "  target \"cursor\" {\n    timout = \"5s\"\n  }\n}\n", "Unsupported argument", `Did you mean "timeout"?`, 4},
		{"service attribute", head + "  target \"cursor\" {\n    command = \"x\"\n  }\n}\n", "Unsupported argument", "", 4},
		{"duplicate", head + "  target \"cursor\" {}\n  target \"cursor\" {}\n}\n", "Duplicate target", "already has a target", 4},
		{"no label", head + "  target {}\n}\n", "Missing tool for target", "1 labels", 3},
		{"extra not an object", head + "  target \"cursor\" {\n    extra = [\"a\"]\n  }\n}\n", "Invalid extra", "must be an object", 4},
		{"extra string", head + "  target \"cursor\" {\n    extra = \"a\"\n  }\n}\n", "Invalid extra", "this is a string", 4},
		{"secret in extra", head + "  target \"cursor\" {\n    extra = { token = secret(\"env:T\") }\n  }\n}\n", "Secret not allowed in extra", "written into the tool's file as given", 4},
		{"nested secret in extra", head + "  target \"cursor\" {\n    extra = { a = { b = \"x${secret(\"env:T\")}\" } }\n  }\n}\n", "Secret not allowed in extra", "", 4},
		{"plain secret in extra", head + "  target \"cursor\" {\n    extra = { apiKey = \"abc\" }\n  }\n}\n", "Secret in plain text", "nonsensitive", 4},
		{"token-shaped in extra", head + "  target \"cursor\" {\n    extra = { note = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\" }\n  }\n}\n", "Secret in plain text", "shaped like a credential", 4},
		{"url on stdio", head + "  target \"cursor\" {\n    url = \"https://x\"\n  }\n}\n", "Attribute only for remote services", "cannot change how a service is reached", 4},
		{"args on remote", "service \"x\" {\n  url = \"https://x\"\n  target \"cursor\" {\n    args = [\"a\"]\n  }\n}\n", "Attribute only for stdio services", "", 4},
		{"bad timeout", head + "  target \"cursor\" {\n    timeout = \"soon\"\n  }\n}\n", "Invalid duration", "", 4},
		{"bad list", head + "  target \"cursor\" {\n    enabled_tools = \"a\"\n  }\n}\n", "Incorrect attribute value type", "list of string", 4},
		{"bad header name", "service \"x\" {\n  url = \"https://x\"\n  target \"cursor\" {\n    headers = { \"a b\" = \"c\" }\n  }\n}\n", "Invalid header name", "", 4},
		{"bad url", "service \"x\" {\n  url = \"https://x\"\n  target \"cursor\" {\n    url = \"ftp://x\"\n  }\n}\n", "Invalid url", "", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := load(t, tt.src, nil, nil)
			var found *hcl.Diagnostic
			for _, d := range diags {
				if d.Summary == tt.summary {
					found = d
					break
				}
			}
			if found == nil {
				t.Fatalf("no %q diagnostic; got: %s", tt.summary, diags.Error())
			}
			if found.Severity != hcl.DiagError {
				t.Errorf("severity = %v, want error", found.Severity)
			}
			if !strings.Contains(found.Detail, tt.detail) {
				t.Errorf("detail %q does not contain %q", found.Detail, tt.detail)
			}
			if found.Subject == nil || found.Subject.Start.Line != tt.line {
				t.Errorf("subject = %v, want line %d", found.Subject, tt.line)
			}
		})
	}
}

// A plain value that only looks secret passes through nonsensitive(), as in
// env; a tool block's own tool may have a target.
func TestTargetNonsensitiveAndCustomTool(t *testing.T) {
	cfg := mustLoad(t, `
tool "acme" {
  format = "json"
  config = "~/.acme/mcp.json"
}
service "x" {
  command = "npx"
  target "acme" {
    extra = { apiKey = nonsensitive("public-demo-key") }
  }
}
`)
	if got := cfg.Target("x", "acme").Extra["apiKey"]; got != "public-demo-key" {
		t.Fatalf("extra apiKey = %v", got)
	}
}

// Each instance of a for_each service has its own targets, which see
// each.*; a mistake in the block is reported once, not per instance, and
// the targets of a service absent on this machine go with it.
func TestTargetsOfInstances(t *testing.T) {
	cfg := mustLoad(t, `
service "gh" {
  for_each = toset(["acme", "labs"])
  command  = "npx"
  args     = ["gh", each.key]
  target "cursor" {
    args = ["gh", each.key, "--ide"]
  }
}
service "off" {
  when    = false
  command = "x"
  target "cursor" {
    timeout = "5s"
  }
}
`)
	for _, key := range []string{"acme", "labs"} {
		if got := cfg.ToolDefinition(cfg.Service("gh-"+key), "cursor"); len(got.Args) != 3 || got.Args[1].HCL() != key {
			t.Errorf("gh-%s in cursor: %+v", key, got.Args)
		}
	}
	if cfg.Target("off", "cursor") != nil {
		t.Error("the target of an absent service stayed")
	}
	_, diags := load(t, `
service "gh" {
  for_each = toset(["acme", "labs"])
  command  = "npx"
  target "cursr" {}
}
`, nil, nil)
	n := 0
	for _, d := range diags {
		if d.Summary == "Unknown tool" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d Unknown tool diagnostics, want 1: %s", n, diags.Error())
	}
}
