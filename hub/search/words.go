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
	runes := []rune(text)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, strings.ToLower(string(runes[start:end])))
		}
		start = -1
	}
	for i, r := range runes {
		if !isWordRune(r) {
			flush(i)
			continue
		}
		if start >= 0 && camelBoundary(runes, i) {
			flush(i)
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(runes))
	return out
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// camelBoundary reports whether a new word starts at runes[i]: a capital
// after a lower-case letter or digit ("listIssues"), or the last capital of
// a run followed by a lower-case letter ("HTMLParser").
func camelBoundary(runes []rune, i int) bool {
	r, prev := runes[i], runes[i-1]
	if !unicode.IsUpper(r) {
		return false
	}
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true
	}
	return unicode.IsUpper(prev) && i+1 < len(runes) && unicode.IsLower(runes[i+1])
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
	"must", "do", "does", "did", "done", "have", "has", "had", "not", "no", "yes", "all",
	"any", "some", "each", "every", "which", "what", "who", "whom", "whose", "when", "where",
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
