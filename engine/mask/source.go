package mask

import (
	"regexp"
	"strings"
)

// A sensitive HCL or dotenv assignment written with a literal string:
// token = "abc", API_KEY="abc".
var sensitiveAssignment = regexp.MustCompile(`(?i)([A-Za-z0-9_\-]*(token|key|secret|password|passwd|auth|credential)[A-Za-z0-9_\-]*"?\s*[=:]\s*")([^"$]+)(")`)

// A flag followed by its value in an HCL list ("--password", "hunter2"), or
// a flag with its value inline ("--token=abc").
var flagValue = regexp.MustCompile(`("(-{1,2}[A-Za-z0-9_.\-]+)"\s*,\s*")([^"$]+)(")|("(-{1,2}[A-Za-z0-9_.\-]+)=)([^"$]+)(")`)

// Source masks a configuration file's text for display in diagnostics while
// keeping every line the same length, so that source snippets stay aligned
// with the columns they underline. literals are further values to hide.
func Source(text string, literals []string) string {
	keep := func(s string) string {
		if len(s) <= 4 {
			return strings.Repeat("*", len(s))
		}
		return s[:4] + strings.Repeat("*", len(s)-4)
	}
	for _, lit := range literals {
		if len(lit) >= 4 {
			text = strings.ReplaceAll(text, lit, keep(lit))
		}
	}
	text = sensitiveAssignment.ReplaceAllStringFunc(text, func(m string) string {
		sub := sensitiveAssignment.FindStringSubmatch(m)
		if IsReference(sub[3]) {
			return m
		}
		return sub[1] + keep(sub[3]) + sub[4]
	})
	text = flagValue.ReplaceAllStringFunc(text, func(m string) string {
		sub := flagValue.FindStringSubmatch(m)
		head, flag, value, tail := sub[1], sub[2], sub[3], sub[4]
		if head == "" {
			head, flag, value, tail = sub[5], sub[6], sub[7], sub[8]
		}
		if _, _, _, ok := SecretFlag(flag); !ok || IsReference(value) {
			return m
		}
		return head + keep(value) + tail
	})
	text = urlInText.ReplaceAllStringFunc(text, func(raw string) string {
		// A URL's password and secret-looking query values, starred at
		// their own length.
		masked := maskURLPasswords(raw)
		if masked == raw {
			return raw
		}
		return starredLike(raw, masked)
	})
	return replaceShapes(text, func(tok string) string {
		if Value(tok) == tok {
			return tok // judged harmless: a path or a digest
		}
		return keep(tok)
	})
}

// starredLike returns raw with the parts that masking changed (masked holds
// "******" where raw had a value) replaced by as many stars, so the text
// keeps its length.
func starredLike(raw, masked string) string {
	var b strings.Builder
	i, j := 0, 0
	for i < len(raw) && j < len(masked) {
		if raw[i] == masked[j] {
			b.WriteByte(raw[i])
			i++
			j++
			continue
		}
		// masked has "******" here: skip raw up to the next byte that
		// follows the stars in masked.
		j += len("******")
		next := byte(0)
		if j < len(masked) {
			next = masked[j]
		}
		for i < len(raw) && raw[i] != next {
			b.WriteByte('*')
			i++
		}
	}
	for ; i < len(raw); i++ {
		b.WriteByte('*')
	}
	return b.String()
}
