package secret

import (
	"strings"
	"unicode"
)

// secretWords are the words that make a name secret-looking on their own,
// and secretPairs the two-word names that do (API_KEY, but not KEY alone,
// which names too many harmless things).
var (
	secretWords = map[string]bool{
		"TOKEN": true, "SECRET": true, "PASSWORD": true, "PASSWD": true, "APIKEY": true,
		"CREDENTIAL": true, "CREDENTIALS": true, "BEARER": true, "PAT": true,
	}
	secretPairs = map[string]bool{
		"API_KEY": true, "ACCESS_KEY": true, "PRIVATE_KEY": true, "AUTH_TOKEN": true,
	}
)

// LooksSecret reports whether a variable, key or header name says that its
// value is a secret: one of its words (split on _, -, . and case changes)
// is in an exact list — TOKEN, SECRET, PASSWORD, PASSWD, APIKEY,
// CREDENTIAL(S), BEARER, PAT — or two adjacent words are API_KEY,
// ACCESS_KEY, PRIVATE_KEY or AUTH_TOKEN. GITHUB_TOKEN and
// GITHUB_PERSONAL_ACCESS_TOKEN look secret; PATH, MONKEY and KEYBOARD do not.
func LooksSecret(name string) bool {
	words := splitWords(name)
	for i, w := range words {
		if secretWords[w] {
			return true
		}
		if i > 0 && secretPairs[words[i-1]+"_"+w] {
			return true
		}
	}
	return false
}

// splitWords splits a name into upper-case words at separators and at
// lower-to-upper case changes (apiKey → API KEY).
func splitWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToUpper(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return words
}
