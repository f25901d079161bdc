package mask

import (
	"regexp"
	"strings"
)

// bearer finds a credential sent as a bearer token: the scheme, then a
// token of RFC 6750's characters, eight or more of them. A reference
// (${TOKEN}) starts with another character and is not matched; neither is
// a value masked already ("ghp_…******" stops at the ellipsis).
var bearer = regexp.MustCompile(`(?i)\bbearer[ \t]+([A-Za-z0-9._~+/=-]{8,})`)

// maskBearer hides the token of every "Bearer TOKEN" in s, whatever its
// shape: a bearer token is a credential by what it is sent as.
func maskBearer(s string) string {
	if !strings.Contains(s, "earer") && !strings.Contains(s, "EARER") {
		return s
	}
	found := bearer.FindAllStringSubmatchIndex(s, -1)
	if found == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range found {
		b.WriteString(s[last:m[2]])
		b.WriteString(Hide(s[m[2]:m[3]]))
		last = m[3]
	}
	b.WriteString(s[last:])
	return b.String()
}

// Pairs of a sensitive key and a string value, as a tool entry shows them:
// "KEY": "VALUE" in JSON, KEY = "VALUE" in TOML.
var (
	jsonPair = regexp.MustCompile(`"((?:[^"\\]|\\.)+)"(\s*:\s*)"((?:[^"\\]|\\.)*)"`)
	tomlPair = regexp.MustCompile(`^(\s*[-+ ]?\s*)([A-Za-z0-9_.-]+|"(?:[^"\\]|\\.)+")(\s*=\s*)"((?:[^"\\]|\\.)*)"`)
)

// Fields masks text as Text does and also hides the string value of every
// JSON or TOML pair whose key names a secret (SensitiveName), as Named
// does: references stay readable ("Bearer ${TOKEN}"), a literal is
// hidden whatever its shape. It is the rule for what a person reads of a
// tool's entries — plan diffs — where a header or variable name says what
// its value is even when the value looks like nothing in particular.
func (m *Masker) Fields(text string) string {
	text = m.Text(text)
	text = jsonPair.ReplaceAllStringFunc(text, func(pair string) string {
		p := jsonPair.FindStringSubmatch(pair)
		if !secretKey(p[1]) {
			return pair
		}
		return `"` + p[1] + `"` + p[2] + `"` + Named(p[1], p[3]) + `"`
	})
	var b strings.Builder
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		p := tomlPair.FindStringSubmatchIndex(line)
		if p == nil || !secretKey(strings.Trim(line[p[4]:p[5]], `"`)) {
			b.WriteString(line)
			continue
		}
		key := strings.Trim(line[p[4]:p[5]], `"`)
		b.WriteString(line[:p[8]])
		b.WriteString(Named(key, line[p[8]:p[9]]))
		b.WriteString(line[p[9]:])
	}
	return b.String()
}

// secretKey reports whether a key's value is a secret: its name says so
// (SensitiveName), and it does not name an environment variable instead
// (codex's bearer_token_env_var holds a variable's name, not its value).
func secretKey(key string) bool {
	return SensitiveName(key) && !strings.HasSuffix(strings.ToLower(key), "_env_var")
}
