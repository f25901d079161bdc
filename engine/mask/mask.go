package mask

import (
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

// Tokens shaped like known credentials, anywhere in a string.
var tokenShapes = regexp.MustCompile(strings.Join([]string{
	`sk-[A-Za-z0-9_\-]{8,}`,
	`gh[pousr]_[A-Za-z0-9]{8,}`,
	`github_pat_[A-Za-z0-9_]{8,}`,
	`xox[abposr]-[A-Za-z0-9\-]{8,}`,
	`lin_api_[A-Za-z0-9]{8,}`,
	`eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*`, // JWT
	`\b[0-9a-fA-F]{32,}\b`,
	`\b[A-Za-z0-9+/_\-]{32,}={0,2}`,
}, "|"))

// References to a secret that are safe to show: they name a variable, not a value.
var references = regexp.MustCompile(`\$\{(env:)?[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}|\{env:[A-Za-z_][A-Za-z0-9_]*\}|\{file:[^}]*\}|^\$[A-Za-z_][A-Za-z0-9_]*$|secret\("(env|file):[^"]*"\)`)

// IsReference reports whether s is wholly a reference to a secret.
func IsReference(s string) bool {
	loc := references.FindStringIndex(s)
	return loc != nil && loc[0] == 0 && loc[1] == len(s)
}

// Value masks the secret-looking parts of a free-standing value: credential
// shaped tokens and URL passwords. Other text is kept.
func Value(s string) string {
	s = maskURLPasswords(s)
	return tokenShapes.ReplaceAllStringFunc(s, func(tok string) string {
		if strings.Contains(tok, "/") && !looksRandom(tok) {
			return tok // a path, not a credential
		}
		if isHexDigest(tok) && (len(tok) == 40 || len(tok) == 64) && !looksRandom(tok) {
			return tok
		}
		return Hide(tok)
	})
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

// hexDigest reports whether tok is all hex digits.
func isHexDigest(tok string) bool {
	for _, c := range tok {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
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
