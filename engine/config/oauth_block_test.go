package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

func TestOAuthBlock(t *testing.T) {
	cfg := mustLoad(t, `
service "linear" {
  url = "https://mcp.linear.app/mcp"
  oauth {}
}
service "corp" {
  url = "https://mcp.corp.example/mcp"
  oauth {
    client_id           = "chronicle-desktop"
    client_secret       = secret("env:CORP_CLIENT_SECRET")
    scopes              = ["mcp:tools", "read"]
    callback_port       = 33418
  }
}
service "cimd" {
  url = "https://mcp.example.com/mcp"
  oauth { client_metadata_url = "https://chronicle.example/client.json" }
}
service "plain" { url = "https://mcp.example.com/other" }
`)
	if o := cfg.Service("linear").OAuth; o == nil || o.ClientID != "" || len(o.Scopes) != 0 {
		t.Fatalf("a bare oauth {} decoded as %+v", o)
	}
	corp := cfg.Service("corp").OAuth
	ref, ok := corp.ClientSecret.OnlyRef()
	if corp.ClientID != "chronicle-desktop" || !ok || ref != (secret.Ref{Kind: secret.KindEnv, Name: "CORP_CLIENT_SECRET"}) ||
		!slices.Equal(corp.Scopes, []string{"mcp:tools", "read"}) || corp.CallbackPort != 33418 {
		t.Fatalf("corp's oauth decoded as %+v", corp)
	}
	if got := cfg.Service("cimd").OAuth.ClientMetadataURL; got != "https://chronicle.example/client.json" {
		t.Fatalf("client_metadata_url = %q", got)
	}
	if cfg.Service("plain").OAuth != nil {
		t.Fatal("a service without an oauth block has OAuth settings")
	}
	if !cfg.Service("corp").Equal(*cfg.Service("corp")) || cfg.Service("corp").Equal(*cfg.Service("linear")) {
		t.Fatal("Equal ignores the oauth block")
	}
}

func TestOAuthBlockMistakes(t *testing.T) {
	for _, tc := range []struct{ name, body, summary, under string }{
		{"stdio", `command = "npx"
  oauth {}`, "oauth only for remote services", "oauth"},
		{"literal secret", `url = "https://x.example/mcp"
  oauth {
    client_id     = "c"
    client_secret = "hunter2hunter2"
  }`, "", `"hunter2hunter2"`},
		{"secret without id", `url = "https://x.example/mcp"
  oauth { client_secret = secret("env:S") }`, "client_secret without client_id", "client_secret"},
		{"port", `url = "https://x.example/mcp"
  oauth { callback_port = 70000 }`, "Invalid callback_port", "70000"},
		{"scope", `url = "https://x.example/mcp"
  oauth { scopes = ["a b"] }`, "Invalid scope", `["a b"]`},
		{"metadata url", `url = "https://x.example/mcp"
  oauth { client_metadata_url = "http://x.example/c.json" }`, "Invalid client_metadata_url", `"http://x.example/c.json"`},
		{"unknown", `url = "https://x.example/mcp"
  oauth { client = "x" }`, "Unsupported argument", "client"},
		{"twice", `url = "https://x.example/mcp"
  oauth {}
  oauth {}`, "Duplicate oauth block", "oauth"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "service \"x\" {\n  " + tc.body + "\n}\n"
			_, diags := load(t, src, nil, nil)
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			d := diags[0]
			if tc.summary != "" && d.Summary != tc.summary {
				t.Fatalf("summary %q, want %q (%s)", d.Summary, tc.summary, diags.Error())
			}
			if d.Subject == nil || filepath.Base(d.Subject.Filename) != "chronicle.hcl" || d.Subject.Start.Line < 2 {
				t.Fatalf("the error names no file and place: %v", d.Subject)
			}
			if got := src[d.Subject.Start.Byte:d.Subject.End.Byte]; !strings.HasPrefix(got, tc.under) {
				t.Fatalf("the error is under %q, want %q", got, tc.under)
			}
		})
	}
}
