package search

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"create_pull_request", []string{"create", "pull", "request"}},
		{"API-get-block-children", []string{"api", "get", "block", "children"}},
		{"listIssues", []string{"list", "issues"}},
		{"HTMLParser.parseURL", []string{"html", "parser", "parse", "url"}},
		{"get_v2Items", []string{"get", "v2", "items"}},
		{"kubectl_get", []string{"kubectl", "get"}},
		{"résumé über_Straße", []string{"résumé", "über", "straße"}},
		{"  --__..  ", nil},
		{"", nil},
	} {
		if got := Words(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Words(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTermsStemAndDropStopWords(t *testing.T) {
	got := Terms("Search the repositories for running processes of S3 buckets")
	want := []string{"search", "repositori", "run", "process", "s3", "bucket"}
	if !slices.Equal(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
	// Plural and singular meet.
	if Terms("files")[0] != Terms("file")[0] || Terms("repository")[0] != Terms("repositories")[0] {
		t.Error("plurals do not stem to their singular")
	}
}

// FuzzWords checks that splitting loses nothing and invents nothing: the
// words joined are exactly the text's letters and digits, lower-cased, and
// each word is a non-empty run of letters and digits. Terms, built on it,
// never yields an empty term or a stop word.
func FuzzWords(f *testing.F) {
	for _, s := range []string{"create_pull_request", "HTMLParser", "a.b-c_d", "ÀÉÎõü", "x\xffy", "ǅungla", "İstanbul", "get_v2Items", "mays"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words := Words(s)
		var want strings.Builder
		for _, r := range s {
			if isWordRune(r) {
				want.WriteString(strings.ToLower(string(r)))
			}
		}
		if got := strings.Join(words, ""); got != want.String() {
			t.Fatalf("Words(%q) joined = %q, want %q", s, got, want.String())
		}
		for _, w := range words {
			if w == "" || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) >= 0 {
				t.Fatalf("Words(%q) has the word %q", s, w)
			}
		}
		for _, term := range Terms(s) {
			if term == "" || stopWords[term] {
				t.Fatalf("Terms(%q) has %q", s, term)
			}
		}
	})
}
