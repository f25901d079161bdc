package refsyntax

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

func TestParse(t *testing.T) {
	tests := []struct {
		syntax Syntax
		in     string
		want   string // Value.HCL
	}{
		{Claude, "Bearer ${TOKEN}", `Bearer ${secret("env:TOKEN")}`},
		{Claude, "${URL:-http://localhost}", `$${URL:-http://localhost}`},
		{Claude, "${env:TOKEN}", `$${env:TOKEN}`},
		{Claude, "$TOKEN", `$TOKEN`},
		{Claude, "${A}${B}", `${secret("env:A")}${secret("env:B")}`},
		{Claude, "${unclosed", `$${unclosed`},
		{Gemini, "$CHRONOVA_API_KEY", `${secret("env:CHRONOVA_API_KEY")}`},
		{Gemini, "x $A", `x $A`},
		{Gemini, "${BROWSER_TOKEN}", `${secret("env:BROWSER_TOKEN")}`},
		{Cursor, "Bearer ${env:LINEAR_API_KEY}", `Bearer ${secret("env:LINEAR_API_KEY")}`},
		{Cursor, "${workspaceFolder}/x", `$${workspaceFolder}/x`},
		{VSCode, "${input:github-pat}", `$${input:github-pat}`},
		{VSCode, "${TOKEN}", `$${TOKEN}`},
		{OpenCode, "Bearer {env:JIRA_TOKEN}", `Bearer ${secret("env:JIRA_TOKEN")}`},
		{OpenCode, "Bearer {file:~/.secrets/key}", `Bearer ${secret("file:~/.secrets/key")}`},
		{OpenCode, "{other:x} ${X}", `{other:x} $${X}`},
		{Zed, "Bearer ${TOKEN}", `Bearer $${TOKEN}`},
		{ClaudeDesktop, "Authorization:Bearer ${LINEAR_TOKEN}", `Authorization:Bearer $${LINEAR_TOKEN}`},
		{Cline, "Bearer ${env:GITHUB_TOKEN}", `Bearer ${secret("env:GITHUB_TOKEN")}`},
		{Cline, "${GITHUB_TOKEN}", `$${GITHUB_TOKEN}`},
		{Amp, "token ${SRC_ACCESS_TOKEN}", `token ${secret("env:SRC_ACCESS_TOKEN")}`},
		{Amp, "$SRC_ACCESS_TOKEN", `$SRC_ACCESS_TOKEN`},
		{Junie, "Bearer ${TOKEN}", `Bearer $${TOKEN}`},
		{Goose, "Bearer $AUTH_TOKEN", `Bearer ${secret("env:AUTH_TOKEN")}`},
		{Goose, "https://x/mcp?key=${KEY}&v=$V2x", `https://x/mcp?key=${secret("env:KEY")}&v=${secret("env:V2x")}`},
		{Goose, "costs $5", `costs $5`},
		{Antigravity, "Bearer ${GTFS_FEED_TOKEN}", `Bearer $${GTFS_FEED_TOKEN}`},
		{Antigravity, "$GOOGLE_CLOUD_PROJECT", `$GOOGLE_CLOUD_PROJECT`},
		{Devin, "${API_KEY}", `$${API_KEY}`},
		{Copilot, "Bearer ${GITHUB_TOKEN}", `Bearer ${secret("env:GITHUB_TOKEN")}`},
		{Copilot, "$LINEAR_API_TOKEN", `${secret("env:LINEAR_API_TOKEN")}`},
		{Copilot, "${T:-fallback}", `$${T:-fallback}`},
		{Copilot.In("args"), "${GITHUB_TOKEN}", `$${GITHUB_TOKEN}`},
		{Copilot.In("headers"), "Bearer ${T}", `Bearer ${secret("env:T")}`},
		{Kiro, "Bearer ${API_TOKEN}", `Bearer ${secret("env:API_TOKEN")}`},
		{Kiro, "${env:BRAVE_API_KEY}", `${secret("env:BRAVE_API_KEY")}`},
		{Kiro.In("url"), "https://x/${HOST}", `https://x/$${HOST}`},
	}
	for _, tc := range tests {
		if got := tc.syntax.Parse(tc.in).HCL(); got != tc.want {
			t.Errorf("%s.Parse(%q) = %s, want %s", tc.syntax.Tool, tc.in, got, tc.want)
		}
	}
}

func TestRender(t *testing.T) {
	env := func(n string) secret.Value { return secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: n}) }
	file := secret.FromRef(secret.Ref{Kind: secret.KindFile, Name: "~/k"})
	bearer := secret.Concat(secret.Literal("Bearer "), env("T"))
	tests := []struct {
		syntax Syntax
		v      secret.Value
		want   string // "" means an error
	}{
		{Claude, bearer, "Bearer ${T}"},
		{Gemini, bearer, "Bearer ${T}"},
		{Cursor, bearer, "Bearer ${env:T}"},
		{Windsurf, bearer, "Bearer ${env:T}"},
		{VSCode, bearer, "Bearer ${env:T}"},
		{OpenCode, bearer, "Bearer {env:T}"},
		{OpenCode, file, "{file:~/k}"},
		{Claude, file, ""},
		{Cursor, file, ""},
		{Zed, bearer, ""},
		{ClaudeDesktop, env("T"), ""},
		{Zed, secret.Literal("${T}"), "${T}"},
		{Claude, secret.Literal("${T}"), ""},           // Claude would expand it
		{Claude, secret.Literal("${T:-x}"), "${T:-x}"}, // kept as Claude's own default syntax
		{Gemini, secret.Literal("$HOME"), ""},          // Gemini would expand it
		{VSCode, secret.Literal("${workspaceFolder}"), "${workspaceFolder}"},
		{VSCode, secret.Literal("${env:X}"), ""},
		{OpenCode, secret.Literal("{env:X}"), ""},
		{Claude, secret.Concat(secret.Literal("$"), env("A")), "$${A}"},
		{OpenCode, secret.FromRef(secret.Ref{Kind: secret.KindFile, Name: "a}b"}), ""},
		{Cline, bearer, "Bearer ${env:T}"},
		{Cline, file, ""},
		{Amp, bearer, "Bearer ${T}"},
		{Junie, bearer, ""},
		{Goose, bearer, "Bearer ${T}"},
		{Goose, secret.Literal("$HOME/x"), ""}, // Goose would read it as a reference
		{Antigravity, bearer, ""},
		{Devin, env("T"), ""},
		{Antigravity, secret.Literal("Bearer ${T}"), "Bearer ${T}"}, // literal: Antigravity expands nothing
		{Copilot, bearer, "Bearer ${T}"},
		{Copilot.In("env"), env("T"), "${T}"},
		{Copilot.In("args"), env("T"), ""},
		{Copilot.In("url"), secret.Literal("${T}"), "${T}"}, // literal where Copilot expands nothing
		{Copilot, secret.Literal("$T"), ""},                 // Copilot would expand it
		{Kiro, bearer, "Bearer ${T}"},
		{Kiro.In("headers"), secret.Literal("${env:T}"), ""},
		{Kiro.In("args"), env("T"), ""},
	}
	for _, tc := range tests {
		got, err := tc.syntax.Render(tc.v)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s.Render(%s) = %q, want an error", tc.syntax.Tool, tc.v, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s.Render(%s) = %q, %v, want %q", tc.syntax.Tool, tc.v, got, err, tc.want)
		}
	}
}

// TestParseKnown checks that a tool that expands only the names it knows
// (Goose) leaves every other reference as literal text, and that such text
// renders back unchanged.
func TestParseKnown(t *testing.T) {
	known := func(n string) bool { return n == "TOKEN" }
	v := Goose.ParseKnown("Bearer $TOKEN at $HOME and ${PATH}", known)
	if got, want := v.HCL(), `Bearer ${secret("env:TOKEN")} at $HOME and $${PATH}`; got != want {
		t.Fatalf("ParseKnown = %s, want %s", got, want)
	}
	out, err := Goose.RenderKnown(v, known)
	if err != nil || out != "Bearer ${TOKEN} at $HOME and ${PATH}" {
		t.Fatalf("RenderKnown = %q, %v", out, err)
	}
	if _, err := Goose.Render(v); err == nil {
		t.Fatal("Render, which knows every name, accepted literal $HOME")
	}
}

func FuzzParseRender(f *testing.F) {
	for _, s := range []string{"Bearer ${T}", "${env:X}", "{file:/a}", "$A", "${A:-b}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, syn := range []Syntax{Claude, Gemini, Cursor, OpenCode, Zed, Copilot, Kiro, Kiro.In("args"), Cline, Amp, Junie, Goose} {
			v := syn.Parse(s)
			if out, err := syn.Render(v); err == nil && !syn.Parse(out).Equal(v) {
				t.Fatalf("%s: %q renders as %q, which reads differently", syn.Tool, s, out)
			}
		}
	})
}

// TestOutsideFields: a reference in a field the tool does not expand is
// refused with a message naming the fields it does expand.
func TestOutsideFields(t *testing.T) {
	_, err := Copilot.In("args").Render(secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "T"}))
	if err == nil || !strings.Contains(err.Error(), "copilot expands environment references only in env and headers, not in args") {
		t.Fatalf("got %v", err)
	}
	if got := Claude.In("args"); got.Tool != "claude" || !got.Dollar {
		t.Fatalf("a tool that expands every field changed: %+v", got)
	}
}
