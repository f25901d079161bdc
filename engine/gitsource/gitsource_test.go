package gitsource

import (
	"strings"
	"testing"
)

// Only https:// remotes without credentials are accepted; each refusal
// says what to use instead.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want string // a part of the refusal; "" when accepted
	}{
		{"https://github.com/acme/skills.git", ""},
		{"https://github.com/acme/skills?ref=main", ""},
		{"git@github.com:acme/skills.git", "SSH remotes (git@github.com:acme/skills.git) are not supported: use the https:// URL"},
		{"http://github.com/acme/skills", "Only https:// repositories are supported (got http://)"},
		{"file:///srv/skills", "(got file://)"},
		{"ssh://git@github.com/acme/skills", "(got ssh://)"},
		{"https://me:hunter2@github.com/acme/skills", `The URL carries credentials. Remove them and use auth = secret("env:NAME")`},
		{"https:///acme/skills", "The URL has no host."},
		{"https://github.com/acme/skills?access_token=abc", "The URL carries a credential in its query (access_token)"},
		{"https://github.com/acme/skills?key=abc", "in its query (key)"},
		{"https://github.com/acme/skills?AUTH=abc", "in its query (AUTH)"},
		{"https://github.com/%zz", `"https://github.com/%zz" is not a URL: use the https:// URL`},
	} {
		got := Check(tc.url)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("Check(%q) = %q, want %q", tc.url, got, tc.want)
		}
		if strings.Contains(got, "hunter2") {
			t.Errorf("Check(%q) repeats the password: %q", tc.url, got)
		}
	}
}
