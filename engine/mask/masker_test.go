package mask

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// canary is a secret with the characters that escaping changes.
const canary = `s3cr&t<v>"q\u/+=%é-canary`

func TestMaskerHidesEveryForm(t *testing.T) {
	m := NewMasker()
	m.Add(canary)
	escaped, _ := json.Marshal(canary)
	for name, text := range map[string]string{
		"raw":       "value " + canary + " end",
		"json":      string(escaped),
		"query":     "https://h/x?token=" + url.QueryEscape(canary),
		"path":      "https://h/" + url.PathEscape(canary),
		"go-quoted": fmt.Sprintf("%q", canary),
	} {
		for _, out := range []string{m.Text(text), m.Literal(text)} {
			if strings.Contains(out, canary) || strings.Contains(out, string(escaped[1:len(escaped)-1])) ||
				strings.Contains(out, url.QueryEscape(canary)) || strings.Contains(out, url.PathEscape(canary)) {
				t.Errorf("%s: %q still shows the canary", name, out)
			}
		}
	}
}

func TestLiteralLeavesOtherBytes(t *testing.T) {
	m := NewMasker()
	m.Add("hunter2-secret")
	in := `{"a": "token-shaped ghp_abcdefghijklmnop stays", "b": "x hunter2-secret y"}`
	want := `{"a": "token-shaped ghp_abcdefghijklmnop stays", "b": "x ` + Bare + ` y"}`
	if got := m.Literal(in); got != want {
		t.Fatalf("Literal:\n got %s\nwant %s", got, want)
	}
	if got := string(m.JSON([]byte(in))); got != want {
		t.Fatalf("JSON:\n got %s\nwant %s", got, want)
	}
}

func TestJSONFindsEscapedSpellings(t *testing.T) {
	m := NewMasker()
	m.Add("ABCDsecret")
	in := []byte(`{"description":"see \u0041BCDsecret here","n":1.50,"ok":"\u00e9"}`)
	out := m.JSON(in)
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(v["description"].(string), "ABCDsecret") || !strings.Contains(string(out), "1.50") {
		t.Fatalf("JSON(%s) = %s", in, out)
	}
	clean := []byte(`{"x":"\u00e9 nothing"}`)
	if got := m.JSON(clean); string(got) != string(clean) {
		t.Fatalf("a document without secrets was rewritten: %s", got)
	}
}

func TestMaskerConcurrentUse(t *testing.T) {
	m := NewMasker()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := range 40 {
				m.Add(fmt.Sprintf("secret-%d-%d", i, j))
			}
		}()
		go func() {
			defer wg.Done()
			for range 40 {
				_ = m.Text("secret-1-1 and more")
				_ = m.JSON([]byte(`{"a":"secret-2-2"}`))
			}
		}()
	}
	wg.Wait()
	if got := m.Text("x secret-7-39 y"); strings.Contains(got, "secret-7-39") {
		t.Fatalf("a value added concurrently is not masked: %q", got)
	}
	if len(m.Literals()) != 8*40 {
		t.Fatalf("%d values registered, want %d", len(m.Literals()), 8*40)
	}
}

func TestNilMaskerMasksShapes(t *testing.T) {
	var m *Masker
	m.Add("ignored")
	if got := m.Text("key ghp_abcdefghijklmnopqrstuv"); strings.Contains(got, "ghp_abcdefghijklmnopqrstuv") {
		t.Fatalf("a nil masker left a token: %q", got)
	}
	if got := m.Literal("x"); got != "x" {
		t.Fatalf("Literal on nil changed its input: %q", got)
	}
}

func TestURLCredentialsAreMasked(t *testing.T) {
	for in, want := range map[string]string{
		"clone https://user:pa55word@git.example.com/r.git now":       "clone https://user:******@git.example.com/r.git now",
		"GET https://api.example.com/v1?access_token=abc123&page=2#x": "GET https://api.example.com/v1?access_token=******&page=2#x",
		"https://h/x?token=t0k3n":                                     "https://h/x?token=******",
		"https://h/x?page=2&q=hello":                                  "https://h/x?page=2&q=hello",
		"https://h/x?api_key=${env:KEY}":                              "https://h/x?api_key=${env:KEY}",
	} {
		if got := Value(in); got != want {
			t.Errorf("Value(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestSourceMasksURLCredentialsKeepingLength(t *testing.T) {
	line := `  git = "https://bob:hunter2pass@git.example.com/skills?access_token=abc123&ref=x"`
	got := Source(line, nil)
	if len(got) != len(line) || strings.Contains(got, "hunter2pass") || strings.Contains(got, "abc123") || !strings.Contains(got, "ref=x") {
		t.Fatalf("Source:\n%s\n%s", line, got)
	}
}

func TestAcrossFindsAValueACutWouldSplit(t *testing.T) {
	m := NewMasker()
	m.Add(canary)
	escaped, _ := json.Marshal(canary)
	for _, form := range []string{canary, string(escaped[1 : len(escaped)-1]), url.QueryEscape(canary)} {
		s := "before " + form + " after"
		start := len("before ")
		for i := range len(s) + 1 {
			gotStart, gotEnd, ok := m.Across(s, i)
			inside := i > start && i < start+len(form)
			if ok != inside || (ok && (gotStart != start || gotEnd != start+len(form))) {
				t.Errorf("%q cut at %d: %d %d %v", form, i, gotStart, gotEnd, ok)
			}
		}
	}
	if _, _, ok := (&Masker{}).Across("anything", 3); ok {
		t.Error("a masker without values found one")
	}
}
