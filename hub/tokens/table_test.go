package tokens

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// library is the table o200k.bin was generated from: the reference the
// compact table must count exactly as.
func library(t testing.TB, text string) int {
	t.Helper()
	n, err := libraryCodec().Count(text)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

var libraryCodec = sync.OnceValue(codec.NewO200kBase)

// corpus is the reference texts, the repository's documentation and Go
// sources of this package, and generated texts that mix scripts, digits,
// white space, contractions, invalid UTF-8 and pieces long enough for the
// library's heap merge (96 bytes and more).
func corpus(t *testing.T) []string {
	var texts []string
	b, err := os.ReadFile("testdata/o200k-reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref []struct{ Text string }
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for _, r := range ref {
		texts = append(texts, r.Text)
	}
	for _, glob := range []string{"../../README.md", "../../docs/*.md", "*.go"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, string(b))
		}
	}
	if len(texts) < len(ref)+5 {
		t.Fatalf("corpus: only %d texts", len(texts))
	}
	alphabet := []string{"a", "e", "th", "ing", "A", "Ü", "é", "ß", "я", "Ж", "中", "文", "の", "한", "ا", "ह", "😀", "👍🏽",
		"0", "7", "42", " ", "  ", "\t", "\n", "\r\n", "'s", "'LL", "'t", "/", "{", "}", "\"", ":", ",", "_", "-", ".",
		"<|endoftext|>", "\xff", "\xe2\x82", "\u0301", "https://", "==", "**"}
	rng := rand.New(rand.NewPCG(29, 6))
	for range 2000 {
		var sb strings.Builder
		for range 1 + rng.IntN(60) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		texts = append(texts, sb.String())
	}
	for _, unit := range []string{"a", "ab", "xyz", "🙂", "中文", "0", "=", "é", "\xff"} {
		texts = append(texts, strings.Repeat(unit, 200), "x"+strings.Repeat(unit, 97))
	}
	return texts
}

// TestCountMatchesLibrary compares the compact table's counts with the
// library's map on the corpus, text by text.
func TestCountMatchesLibrary(t *testing.T) {
	texts := corpus(t)
	total := 0
	for _, text := range texts {
		want := library(t, text)
		total += want
		if got := Count(text); got != want {
			t.Errorf("Count(%.60q…) = %d, the library counts %d", text, got, want)
		}
	}
	t.Logf("%d texts, %d tokens, all counted as the library counts them", len(texts), total)
}

// TestTableHoldsTheLibrarysTokens checks every rank of the library's
// table: the token it spells is in the compact table with that rank.
func TestTableHoldsTheLibrarysTokens(t *testing.T) {
	tab := o200kTable()
	c := libraryCodec()
	found := 0
	for id := uint(0); id < 200_019; id++ {
		s, err := c.Decode([]uint{id})
		if err != nil {
			continue // beyond the last rank, or a special token
		}
		found++
		if r, ok := tab.rank(s); !ok || r != uint32(id) {
			t.Fatalf("rank(%q) = %d, %v; the library's is %d", s, r, ok, id)
		}
	}
	if found != tab.n {
		t.Errorf("the library has %d tokens, the table %d", found, tab.n)
	}
	if _, ok := tab.rank("<|endoftext|>"); ok {
		t.Error("a special token is in the table: it would count as one token, not as text")
	}
}

// FuzzCountMatchesLibrary compares the counts on any text.
func FuzzCountMatchesLibrary(f *testing.F) {
	for _, s := range []string{"", "hello world", "don't STOP'LL 123456", "中文 テキスト", "\xff\xfe", strings.Repeat("ab", 60)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := Count(text), library(t, text); got != want {
			t.Errorf("Count(%q) = %d, the library counts %d", text, got, want)
		}
	})
}
