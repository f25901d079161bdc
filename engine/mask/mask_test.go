package mask

import (
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

func TestNamed(t *testing.T) {
	tests := []struct{ name, value, want string }{
		{"GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_…******"},
		{"API_KEY", "plainvalue123", "plai…******"},
		{"API_KEY", "short", "******"},
		{"Authorization", "Bearer lin_api_0123456789abcdef", "Bearer lin_…******"},
		{"Authorization", "Bearer ${LINEAR_TOKEN}", "Bearer ${LINEAR_TOKEN}"},
		{"GITHUB_TOKEN", "${env:GITHUB_TOKEN}", "${env:GITHUB_TOKEN}"},
		{"GITHUB_TOKEN", "{env:GITHUB_TOKEN}", "{env:GITHUB_TOKEN}"},
		{"GITHUB_TOKEN", "$GITHUB_TOKEN", "$GITHUB_TOKEN"},
		{"TOKEN", `secret("env:T")`, `secret("env:T")`},
		{"LOG_LEVEL", "debug", "debug"},
		{"DATABASE_URL", "postgresql://app:hunter2@db.internal:5432/app", "postgresql://app:******@db.internal:5432/app"},
		{"OPENAI", "sk-proj-abcdefghijklmnop", "sk-p…******"},
		{"SLACK", "xoxb-1234567890-abcdefghij", "xoxb…******"},
		{"X", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJh…******"},
		{"PATH_ARG", "/home/dev/projects/some-very-long-directory-name-here/sub", "/home/dev/projects/some-very-long-directory-name-here/sub"},
		{"SHA", "0123456789abcdef0123456789abcdef01234567", "0123456789abcdef0123456789abcdef01234567"},
		{"blob", "Zm9vYmFyYmF6cXV4Q3Vyc2VkVG9rZW4xMjM0NTY3ODkw", "Zm9v…******"},
	}
	for _, tt := range tests {
		if got := Named(tt.name, tt.value); got != tt.want {
			t.Errorf("Named(%q, %q) = %q, want %q", tt.name, tt.value, got, tt.want)
		}
	}
}

func TestMaskerText(t *testing.T) {
	var m Masker
	m.Add("canary-value-42")
	got := m.Text(`error: value "canary-value-42" rejected`)
	if got != `error: value "cana…******" rejected` {
		t.Fatalf("Text = %q", got)
	}
}

func TestSourceKeepsLength(t *testing.T) {
	src := "hub {\n  token = \"plain-token-value\"\n}\nservice \"x\" {\n  env = { A = \"ghp_abcdefghijklmnopqrstuvwxyz01\" }\n  args = [\"--path\", \"/home/dev/work\"]\n}\n"
	got := Source(src, nil)
	if len(got) != len(src) {
		t.Fatalf("length changed: %d → %d", len(src), len(got))
	}
	for _, leak := range []string{"plain-token-value", "ghp_abcdefghijklmnopqrstuvwxyz01"} {
		if strings.Contains(got, leak) {
			t.Errorf("Source left %q visible:\n%s", leak, got)
		}
	}
	if !strings.Contains(got, "/home/dev/work") {
		t.Errorf("Source masked a path:\n%s", got)
	}
}

func TestShown(t *testing.T) {
	ref := secret.FromRef(secret.Ref{Kind: secret.KindEnv, Name: "T"})
	tests := []struct {
		key  string
		v    secret.Value
		want string
	}{
		{"GITHUB_TOKEN", ref, `secret("env:T")`},
		{"Authorization", secret.Concat(secret.Literal("Bearer "), ref), `Bearer ${secret("env:T")}`},
		{"API_KEY", secret.Literal("plainvalue123"), "plai…******"},
		{"", secret.Literal("--verbose"), "--verbose"},
	}
	for _, tt := range tests {
		if got := Shown(tt.key, tt.v); got != tt.want {
			t.Errorf("Shown(%q, %s) = %q, want %q", tt.key, tt.v, got, tt.want)
		}
	}
}

// TestMaskerLongestFirst: a value that contains another is hidden whole, and
// adding a value twice registers it once.
func TestMaskerLongestFirst(t *testing.T) {
	var m Masker
	m.Add("abcd-1234", "abcd-1234-efgh-5678", "abcd-1234")
	if got := m.Literals(); len(got) != 2 || got[0] != "abcd-1234-efgh-5678" {
		t.Fatalf("Literals = %q", got)
	}
	if got := m.Text("x abcd-1234-efgh-5678 y"); strings.Contains(got, "efgh") {
		t.Fatalf("Text = %q: the longer value was cut by the shorter one", got)
	}
}

// TestShownListMasksSecretFlags: the argument after a secret-looking flag
// and a secret flag's inline value are masked; a flag naming where a secret
// is, and other arguments, are not.
func TestShownListMasksSecretFlags(t *testing.T) {
	lits := func(ss ...string) []secret.Value {
		out := make([]secret.Value, len(ss))
		for i, s := range ss {
			out[i] = secret.Literal(s)
		}
		return out
	}
	got := ShownList(lits("--url", "https://h/x", "--password", "hunter2", "--api-key=abcdef123456", "--token-file", "/home/dev/.token", "-v"))
	want := []string{"--url", "https://h/x", "--password", "******", "--api-key=abcd…******", "--token-file", "/home/dev/.token", "-v"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("ShownList = %q\nwant %q", got, want)
	}
}

// TestSourceMasksSecretFlagValues: in a source snippet, the value after a
// secret flag and a secret flag's inline value are starred at their length.
func TestSourceMasksSecretFlagValues(t *testing.T) {
	line := `  args = ["--password", "hunter2-pw", "--api-key=abcdef1234", "--token-file", "/home/dev/t", "--verbose", "on"]`
	got := Source(line, nil)
	if len(got) != len(line) || strings.Contains(got, "hunter2-pw") || strings.Contains(got, "abcdef1234") || !strings.Contains(got, "/home/dev/t") || !strings.Contains(got, `"on"`) {
		t.Fatalf("Source:\n%s\n%s", line, got)
	}
}
