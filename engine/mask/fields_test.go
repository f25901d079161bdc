package mask

import "testing"

func TestBearerTokensAreHidden(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Authorization: Bearer sntrys_FAKE0123456789abcdef", "Authorization: Bearer sntr" + Suffix},
		{"bearer abcdefgh12", "bearer abcd" + Suffix},
		{`"Bearer ${SENTRY_TOKEN}"`, `"Bearer ${SENTRY_TOKEN}"`},
		{"Bearer {env:T}", "Bearer {env:T}"},
		{"Bearer short", "Bearer short"},                     // not a token: too short to be one
		{"the bearer of bad news", "the bearer of bad news"}, // a word, not a scheme and token
		{"Bearer ghp_FAKE0123456789abcdefghij", "Bearer ghp_" + Suffix},
	} {
		if got := Value(c.in); got != c.want {
			t.Errorf("Value(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFieldsHidesValuesOfSecretKeys(t *testing.T) {
	m := NewMasker()
	for _, c := range []struct{ in, want string }{
		// JSON, as a diff line of a tool entry shows it.
		{`-    "X-Api-Key": "plainvalue42"`, `-    "X-Api-Key": "plai` + Suffix + `"`},
		{`+    "GITHUB_TOKEN": "${GITHUB_TOKEN}"`, `+    "GITHUB_TOKEN": "${GITHUB_TOKEN}"`},
		{`     "command": "npx"`, `     "command": "npx"`},
		{`"headers": {"Authorization": "Bearer abc", "Accept": "json"}`, `"headers": {"Authorization": "Bearer ******", "Accept": "json"}`},
		// TOML.
		{`-password = "hunter2hunter2"`, `-password = "hunt` + Suffix + `"`},
		{` bearer_token_env_var = "LINEAR_TOKEN"`, ` bearer_token_env_var = "LINEAR_TOKEN"`}, // a variable's name
		{` command = "npx"`, ` command = "npx"`},
		// A name is never hidden for looking like a key.
		{`"name": "api-key-rotation"`, `"name": "api-key-rotation"`},
	} {
		if got := m.Fields(c.in); got != c.want {
			t.Errorf("Fields(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
