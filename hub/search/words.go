package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Words splits text into lower-case words: at every rune that is neither a
// letter nor a digit ("_", "-", ".", spaces, punctuation) and inside
// camelCase words ("listIssues" → "list", "issues"; "HTMLParser" → "html",
// "parser"). Letters and digits are never dropped: the words joined
// together are the text's letters and digits, lower-cased.
func Words(text string) []string {
	var out []string
	eachWord(text, func(w string) { out = append(out, w) })
	return out
}

// eachWord calls yield with each word of text, as Words splits it.
func eachWord(text string, yield func(string)) {
	start := -1 // byte offset of the word being read
	var prev rune
	for i, r := range text {
		if !isWordRune(r) {
			if start >= 0 {
				yield(strings.ToLower(text[start:i]))
				start = -1
			}
			prev = r
			continue
		}
		if start >= 0 && camelBoundary(prev, r, text[i+utf8.RuneLen(r):]) {
			yield(strings.ToLower(text[start:i]))
			start = -1
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	if start >= 0 {
		yield(strings.ToLower(text[start:]))
	}
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// camelBoundary reports whether a new word starts at r, which follows prev
// and precedes rest: a capital after a lower-case letter or digit
// ("listIssues"), or the last capital of a run followed by a lower-case
// letter ("HTMLParser").
func camelBoundary(prev, r rune, rest string) bool {
	if !unicode.IsUpper(r) {
		return false
	}
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true
	}
	if !unicode.IsUpper(prev) || rest == "" {
		return false
	}
	next, _ := utf8.DecodeRuneInString(rest)
	return unicode.IsLower(next)
}

// Terms returns the index terms of text: its words, each stemmed, stop
// words left out.
func Terms(text string) []string {
	words := Words(text)
	out := words[:0]
	for _, w := range words {
		if t, ok := term(w); ok {
			out = append(out, t)
		}
	}
	return out
}

// term returns a lower-case word's term: its stem, unless the word or its
// stem ("mays" → "may") is a stop word.
func term(w string) (string, bool) {
	if stopWords[w] {
		return "", false
	}
	s := stem(w)
	return s, !stopWords[s]
}

// stem reduces an English word to its Porter2 stem; words with a digit, or
// not ASCII, are kept as they are (the stemmer is for English words, and
// "s3" or "v2" are names).
func stem(w string) string {
	if len(w) < 3 || utf8.RuneCountInString(w) != len(w) || strings.ContainsAny(w, "0123456789") {
		return w
	}
	return english.Stem(w, false)
}

// stopWords are English function words that say nothing of what a tool
// does; "get", "use" and the like stay, since tool names are made of them.
var stopWords = setOf(
	"a", "an", "the", "and", "or", "nor", "but", "of", "to", "in", "into", "on", "onto", "at",
	"by", "for", "from", "with", "without", "as", "is", "are", "was", "were", "be", "been",
	"being", "it", "its", "this", "that", "these", "those", "there", "their", "them", "they",
	"i", "me", "my", "we", "our", "you", "your", "he", "she", "his", "her", "if", "then",
	"than", "so", "such", "can", "could", "should", "would", "will", "shall", "may", "might",
	"must", "do", "does", "did", "done", "have", "has", "had", "not", "no", "yes",
	"any", "some", "each", "which", "what", "who", "whom", "whose", "when", "where",
	"why", "how", "also", "just", "only", "very", "about", "up", "out", "over", "via", "per",
	"e", "g", "eg", "ie", "etc", "please", "want", "need", "like", "let", "lets",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
