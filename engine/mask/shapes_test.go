package mask

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// tokenShapes is the specification of the shape rules that shapes.go
// implements by hand.
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

// TestReplaceShapesIsTheExpression: run by run, the shape rules find what
// the expression finds in the whole text.
func TestReplaceShapesIsTheExpression(t *testing.T) {
	mark := func(tok string) string { return "<" + tok + ">" }
	for _, text := range []string{
		"", "short words only", "eyJabcdefg.abcdefgh.x", "eyJabcdefgh.abcdefg.x", "a/" + strings.Repeat("b", 40), "sk-0123456789", "x sk-0123456789abc y",
		`env GITHUB_TOKEN="ghp_FAKE0123456789abcdefABCDEF0123", a=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U.`,
		"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n/path/to/Zm9vYmFyYmF6cXV4Q3Vyc2VkVG9rZW4xMjM0NTY3ODkw==;",
		"é" + strings.Repeat("ab", 20) + "é" + strings.Repeat("A1b", 12) + "\x00xoxb-1234567890-abcdefghij", "a" + strings.Repeat("eyJ", 30) + "." + strings.Repeat("b", 40),
	} {
		if got, want := replaceShapes(text, mark), tokenShapes.ReplaceAllStringFunc(text, mark); got != want {
			t.Errorf("replaceShapes(%q)\n got %q\nwant %q", text, got, want)
		}
	}
}

// TestReplaceShapesMatchesTheExpressionOnRandomText compares the scan with
// the expression on random text made of the pieces tokens are made of.
func TestReplaceShapesMatchesTheExpressionOnRandomText(t *testing.T) {
	pieces := []string{"sk-", "ghp_", "gho_", "github_pat_", "xoxb-", "lin_api_", "eyJ", ".", "=", "-", "_", "+", "/",
		" ", "é", "\n", "a", "f", "0", "9", "Z", "g", "abcdef0123", "ABCDEF4567", "QwErTy"}
	mark := func(tok string) string { return "<" + tok + ">" }
	r := rand.New(rand.NewPCG(1, 21))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		if got, want := replaceShapes(text, mark), tokenShapes.ReplaceAllStringFunc(text, mark); got != want {
			t.Fatalf("replaceShapes(%q)\n got %q\nwant %q", text, got, want)
		}
	}
}
