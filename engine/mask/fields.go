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

// Pairs of a key and a value on one line, as a tool entry shows them in a
// diff (a leading -, + or space is the diff's): "KEY": "VALUE" in JSON,
// KEY = "VALUE" in TOML, KEY: VALUE in YAML (goose's extensions). These
// expressions only find where a key and its value lie on a line someone
// reads; nothing is parsed with them.
var (
	jsonPair = regexp.MustCompile(`"((?:[^"\\]|\\.)+)"(\s*:\s*)"((?:[^"\\]|\\.)*)"`)
	tomlPair = regexp.MustCompile(`(^[-+ ]?\s*|[{,]\s*)([A-Za-z0-9_.-]+|"(?:[^"\\]|\\.)+")(\s*=\s*)("(?:[^"\\]|\\.)*"|'[^']*')`)
	yamlPair = regexp.MustCompile(`^[-+ ]?\s*(?:-\s+)*([A-Za-z0-9_.-]+|"(?:[^"\\]|\\.)+"|'(?:[^']|'')+')\s*:[ \t]+(\S.*)$`)
)

// Fields masks text as Text does and also hides the value of every JSON,
// TOML or YAML pair whose key names a secret (SensitiveName), as Named
// does: references stay readable ("Bearer ${TOKEN}"), a literal is hidden
// whatever its shape — a YAML plain scalar (DB_PASSWORD: correct-horse-battery)
// and the lines of a YAML block scalar (KEY: |) included. It is the rule for
// what a person reads of a tool's entries — plan diffs, line by line —
// where a header or variable name says what its value is even when the
// value looks like nothing in particular.
func (m *Masker) Fields(text string) string {
	text = m.Text(text)
	var b strings.Builder
	block := -1 // the column of a secret key whose block scalar follows, or -1
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if block >= 0 {
			if inBlock(line, block) {
				b.WriteString(hideBlockLine(line))
				continue
			}
			block = -1
		}
		line, block = pairLine(line)
		b.WriteString(line)
	}
	return b.String()
}

// pairLine hides the value of the secret pair on one line, if any. When
// the pair is a YAML key whose value is a block scalar on the lines
// below, it also returns the key's column, else -1.
func pairLine(line string) (string, int) {
	if jsonPair.MatchString(line) {
		return jsonPair.ReplaceAllStringFunc(line, func(pair string) string {
			p := jsonPair.FindStringSubmatch(pair)
			if !secretKey(p[1]) {
				return pair
			}
			return `"` + p[1] + `"` + p[2] + `"` + Named(p[1], p[3]) + `"`
		}), -1
	}
	if tomlPair.MatchString(line) {
		// A pair of its own on the line, or in an inline table.
		return tomlPair.ReplaceAllStringFunc(line, func(pair string) string {
			p := tomlPair.FindStringSubmatchIndex(pair)
			key := unquote(pair[p[4]:p[5]])
			if !secretKey(key) {
				return pair
			}
			// The value without its quotes, which stay.
			return pair[:p[8]+1] + Named(key, pair[p[8]+1:p[9]-1]) + pair[p[9]-1:]
		}), -1
	}
	p := yamlPair.FindStringSubmatchIndex(line)
	if p == nil {
		return line, -1
	}
	key := unquote(line[p[2]:p[3]])
	if !secretKey(key) {
		return line, -1
	}
	start, end, isBlock := yamlScalar(line, p[4])
	if isBlock {
		return line, p[2]
	}
	if start == end {
		return line, -1
	}
	return line[:start] + Named(key, line[start:end]) + line[end:], -1
}

// yamlScalar finds the text of the scalar that starts at byte at of line:
// inside its quotes when it is quoted, else up to a comment. A flow
// collection ([…], {…}) or an alias is not a scalar and gives an empty
// span; a block scalar's indicator (| or >) gives block.
func yamlScalar(line string, at int) (start, end int, block bool) {
	switch v := line[at:]; v[0] {
	case '"':
		for i := 1; i < len(v); i++ {
			switch v[i] {
			case '\\':
				i++
			case '"':
				return at + 1, at + i, false
			}
		}
		return at + 1, len(line), false
	case '\'':
		for i := 1; i < len(v); i++ {
			if v[i] == '\'' {
				if i+1 < len(v) && v[i+1] == '\'' {
					i++
					continue
				}
				return at + 1, at + i, false
			}
		}
		return at + 1, len(line), false
	case '[', '{', '*':
		return at, at, false
	case '|', '>':
		return at, at, true
	default:
		end := len(line)
		if c := strings.Index(v, " #"); c >= 0 {
			end = at + c
		}
		return at, at + len(strings.TrimRight(line[at:end], " \t")), false
	}
}

// inBlock reports whether line belongs to the block scalar of a key at
// column col: it is blank, or its text starts right of the key. A diff's
// own lines (@@ …) end it.
func inBlock(line string, col int) bool {
	if strings.HasPrefix(line, "@@") || strings.HasPrefix(line, `\`) {
		return false
	}
	text := line
	if text != "" && strings.ContainsRune("-+ ", rune(text[0])) {
		text = text[1:]
	}
	trimmed := strings.TrimLeft(text, " ")
	return trimmed == "" || len(line)-len(trimmed) > col
}

// hideBlockLine hides the text of one line of a secret block scalar,
// keeping the diff's mark and the indentation. The line shows nothing of
// the value: the lines of a key (PEM) would show four characters each.
func hideBlockLine(line string) string {
	text := strings.TrimLeft(line[min(1, len(line)):], " ")
	if text == "" {
		return line
	}
	return line[:len(line)-len(text)] + Bare
}

// unquote drops the quotes around a quoted key.
func unquote(key string) string {
	if len(key) >= 2 && (key[0] == '"' || key[0] == '\'') && key[len(key)-1] == key[0] {
		return key[1 : len(key)-1]
	}
	return key
}

// secretKey reports whether a key's value is a secret: its name says so
// (SensitiveName), and it does not name an environment variable instead
// (codex's bearer_token_env_var holds a variable's name, not its value).
func secretKey(key string) bool {
	return SensitiveName(key) && !strings.HasSuffix(strings.ToLower(key), "_env_var")
}
