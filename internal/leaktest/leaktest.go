// Package leaktest holds the values the hub's tests look for in what a
// client or a person is shown: a resolved secret, a token-shaped string,
// and a big tool result quoting them.
package leaktest

import (
	"strconv"
	"strings"
	"testing"
)

// BenchSecret is a value the hub resolved for an upstream, registered with
// its masker; the big result quotes it.
const BenchSecret = "resolved-upstream-secret-4f9a"

// ShapedToken has the shape of a GitHub token: masked for a person though
// no upstream was given it.
const ShapedToken = "ghp_Q8zV2mK5nR7tW1xY4bC6dF9gH3jL0pS2uE5a"

// BigText is n bytes of a file's lines, as a tool that reads a log returns
// them, that quote key on the first line, every 100,000 lines and on the
// last.
func BigText(n int, key string) string {
	var b strings.Builder
	b.Grow(n + 200)
	b.WriteString("line 0: the key is " + key + "\n")
	for i := 1; b.Len() < n; i++ {
		if i%100_000 == 0 {
			b.WriteString("line " + strconv.Itoa(i) + ": the key is " + key + "\n")
		}
		b.WriteString("line " + strconv.Itoa(i) + ": GET /api/items?page=2 200 0.004s the quick brown fox\n")
	}
	b.WriteString("last line: the key is " + key + "\n")
	return b.String()
}

// AssertMasked fails when out shows BenchSecret or ShapedToken, or more of
// them than the four characters masking keeps.
func AssertMasked(t *testing.T, out string) {
	t.Helper()
	for _, s := range []string{BenchSecret, ShapedToken} {
		if strings.Contains(out, s[:5]) {
			i := strings.Index(out, s[:5])
			t.Errorf("%q shows in %q", s[:5], out[max(0, i-40):min(len(out), i+40)])
		}
	}
}
