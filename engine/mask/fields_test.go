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

func TestFieldsHidesYAMLValuesOfSecretKeys(t *testing.T) {
	m := NewMasker()
	for _, c := range []struct{ in, want string }{
		// goose's extensions, as a diff line shows them: a value of no
		// particular shape is hidden for its key.
		{`-  DB_PASSWORD: correct-horse-battery`, `-  DB_PASSWORD: corr` + Suffix},
		{`+    API_KEY: "correct horse # battery"  # a comment`, `+    API_KEY: "corr` + Suffix + `"  # a comment`},
		{` 'X-Auth': 'it''s a secret'`, ` 'X-Auth': 'it''` + Suffix + `'`},
		{`-  - token: plainvalue42 # kept`, `-  - token: plai` + Suffix + ` # kept`},
		{`+    Authorization: Bearer plainvalue42`, `+    Authorization: Bearer plai` + Suffix},
		// References, names of variables and collections stay.
		{`+    GITHUB_TOKEN: ${GITHUB_TOKEN}`, `+    GITHUB_TOKEN: ${GITHUB_TOKEN}`},
		{`+env_keys:`, `+env_keys:`},
		{`+env_keys: [GITHUB_TOKEN]`, `+env_keys: [GITHUB_TOKEN]`},
		{` cmd: npx`, ` cmd: npx`},
		{` name: api-key-rotation`, ` name: api-key-rotation`},
		// TOML's literal strings too.
		{`-password = 'hunter2hunter2'`, `-password = 'hunt` + Suffix + `'`},
	} {
		if got := m.Fields(c.in); got != c.want {
			t.Errorf("Fields(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestFieldsHidesYAMLBlockScalarsOfSecretKeys(t *testing.T) {
	in := "@@ -1,6 +1,6 @@\n envs:\n-  PRIVATE_KEY: |\n-    line one of the key\n-\n-    line two\n+  PRIVATE_KEY: ${PRIVATE_KEY}\n   OTHER: visible\n@@ -9 +9 @@\n   line: visible too"
	want := "@@ -1,6 +1,6 @@\n envs:\n-  PRIVATE_KEY: |\n-    " + Bare + "\n-\n-    " + Bare + "\n+  PRIVATE_KEY: ${PRIVATE_KEY}\n   OTHER: visible\n@@ -9 +9 @@\n   line: visible too"
	if got := NewMasker().Fields(in); got != want {
		t.Errorf("Fields\n got %q\nwant %q", got, want)
	}
}

func TestFieldsHidesTOMLInlineTableValues(t *testing.T) {
	in := `-env = { DB_PASSWORD = "correct-horse-battery", MODE = "fast", "X-Api-Key" = 'plainvalue42' }`
	want := `-env = { DB_PASSWORD = "corr` + Suffix + `", MODE = "fast", "X-Api-Key" = 'plai` + Suffix + `' }`
	if got := NewMasker().Fields(in); got != want {
		t.Errorf("Fields\n got %q\nwant %q", got, want)
	}
}
