package mask

import (
	"math"
	"net/url"
	"regexp"
	"strings"
)

// Suffix is what replaces the hidden part of a masked value.
const Suffix = "…******"

// Hide returns s masked: its first four characters, then Suffix. Values of
// eight characters or fewer are hidden whole.
func Hide(s string) string {
	r := []rune(s)
	if len(r) <= 8 {
		return "******"
	}
	return string(r[:4]) + Suffix
}

var sensitiveWords = []string{"token", "key", "secret", "password", "passwd", "auth", "credential"}

// SensitiveName reports whether a key, header or variable name suggests that
// its value is a secret (GITHUB_TOKEN, Authorization, x-api-key, …).
func SensitiveName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range sensitiveWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// minEntropy is the fewest bits per character a token-shaped string must
// carry to be taken for a credential. Generated values carry 3.1 or more
// (32 random hex digits: at least 3.1; base64: over 4); a run of one
// character (AAAA…), a placeholder (ghp_xxxx…) or a repeated word does not.
const minEntropy = 3.0

// credential reports whether tok, a shape (shapes.go), is a value to
// hide rather than a name, a path or a digest: it carries minEntropy, and
// a long run of base64 characters also mixes upper case, lower case and
// digits, as generated values do and names (lower-case service names,
// upper-case environment variables, snake_case identifiers) and paths do
// not.
func credential(tok string) bool {
	switch {
	case knownFormat(tok):
	case isHexDigest(tok):
		// A SHA-1 or SHA-256 digest in one case is a commit or a content
		// hash; other hex runs are keys.
		if (len(tok) == 40 || len(tok) == 64) && !looksRandom(tok) {
			return false
		}
	case !looksRandom(tok) || isPath(tok):
		return false
	}
	return entropy(tok) >= minEntropy
}

// isPath reports whether tok, a run of base64 characters, is a path rather
// than a value: one of its parts between slashes is a plain word of three
// or more characters (tmp, home, Users, 001), which the parts of a random
// value, dozens of characters long, almost never are.
func isPath(tok string) bool {
	for part := range strings.SplitSeq(tok, "/") {
		if part != tok && plainWord(part) {
			return true
		}
	}
	return false
}

// plainWord reports whether s is three or more lower-case letters and
// digits, with a capital first letter allowed.
func plainWord(s string) bool {
	if len(s) < 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || i == 0 && 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// entropy returns the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n, h := float64(len(s)), 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// References to a secret that are safe to show: they name a variable, not a value.
var references = regexp.MustCompile(`\$\{(env:)?[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}|\{env:[A-Za-z_][A-Za-z0-9_]*\}|\{file:[^}]*\}|^\$[A-Za-z_][A-Za-z0-9_]*$|secret\("(env|file):[^"]*"\)`)

// IsReference reports whether s is wholly a reference to a secret.
func IsReference(s string) bool {
	loc := references.FindStringIndex(s)
	return loc != nil && loc[0] == 0 && loc[1] == len(s)
}

// Value masks the secret-looking parts of a free-standing value: credential
// shaped tokens, URL passwords and bearer tokens. Other text is kept.
func Value(s string) string {
	s = maskURLPasswords(s)
	s = replaceShapes(s, func(tok string) string {
		if !credential(tok) {
			return tok
		}
		return Hide(tok)
	})
	return maskBearer(s)
}

// Named masks value when its name is sensitive, and otherwise masks only its
// secret-looking parts. A value that is only a reference stays readable, and
// so does literal text around references ("Bearer ${TOKEN}").
func Named(name, value string) string {
	if value == "" || !SensitiveName(name) {
		return Value(value)
	}
	if IsReference(value) {
		return value
	}
	if refs := references.FindAllStringIndex(value, -1); len(refs) > 0 {
		rest := references.ReplaceAllString(value, "")
		if strings.TrimSpace(rest) == "" || strings.EqualFold(strings.TrimSpace(rest), "bearer") {
			return value
		}
	}
	if strings.HasPrefix(strings.ToLower(value), "bearer ") {
		return value[:7] + Hide(value[7:])
	}
	return Hide(value)
}

// knownFormat reports whether tok, a shape, is one of the formats
// recognised by their prefix.
func knownFormat(tok string) bool {
	for _, p := range []string{"sk-", "github_pat_", "lin_api_", "eyJ"} {
		if strings.HasPrefix(tok, p) {
			return true
		}
	}
	return len(tok) > 4 && (tok[:2] == "gh" && tok[3] == '_' || tok[:3] == "xox" && tok[4] == '-')
}

// hexDigest reports whether tok is all hex digits.
func isHexDigest(tok string) bool {
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// looksRandom reports whether tok mixes upper case, lower case and digits, as
// generated credentials do and words, paths and hashes do not.
func looksRandom(tok string) bool {
	var upper, lower, digit bool
	for _, c := range tok {
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	return upper && lower && digit
}

var urlInText = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[^\s"'<>]+`)

func maskURLPasswords(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	return urlInText.ReplaceAllStringFunc(s, func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil {
			return raw
		}
		out := raw
		if _, ok := u.User.Password(); ok && u.User != nil {
			out = hideUserinfoPassword(out)
		}
		if u.RawQuery != "" {
			out = hideQuerySecrets(out)
		}
		return out
	})
}

// hideUserinfoPassword masks the password of scheme://user:password@host.
func hideUserinfoPassword(raw string) string {
	scheme := strings.Index(raw, "://") + 3
	at := strings.Index(raw[scheme:], "@")
	if at < 0 {
		return raw
	}
	at += scheme
	colon := strings.Index(raw[scheme:at], ":")
	if colon < 0 {
		return raw
	}
	return raw[:scheme+colon+1] + "******" + raw[at:]
}

// hideQuerySecrets masks the values of query parameters whose names look
// secret (?access_token=…, ?token=…, ?api_key=…), keeping the rest of the
// URL as written.
func hideQuerySecrets(raw string) string {
	q := strings.Index(raw, "?")
	if q < 0 {
		return raw
	}
	query, frag := raw[q+1:], ""
	if h := strings.Index(query, "#"); h >= 0 {
		query, frag = query[:h], query[h:]
	}
	params := strings.Split(query, "&")
	for i, p := range params {
		name, value, ok := strings.Cut(p, "=")
		if !ok || value == "" {
			continue
		}
		if n, err := url.QueryUnescape(name); err == nil && SensitiveName(n) && !IsReference(value) {
			params[i] = name + "=******"
		}
	}
	return raw[:q+1] + strings.Join(params, "&") + frag
}
