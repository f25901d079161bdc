package search_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/search"
)

func names(rs []search.Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}

var small = []search.Doc{
	{Name: "gh__create_issue", Service: "gh", Tool: "create_issue", Description: "Create a new issue in a repository.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string","description":"Headline of the bug report"}}}`)},
	{Name: "gh__listPullRequests", Service: "gh", Tool: "listPullRequests", Description: "List pull requests of a repository."},
	{Name: "fs__read_file", Service: "fs", Tool: "read_file", Description: "Read a file from disk."},
	{Name: "fs__write_file", Service: "fs", Tool: "write_file", Description: "Write a file to disk.",
		InputSchema: json.RawMessage(`{"type":"object","$defs":{"enc":{"type":"object","properties":{"charset":{"type":"string"}}}},"properties":{"options":{"$ref":"#/$defs/enc"}}}`)},
	{Name: "web__screenshot", Service: "web", Tool: "screenshot", Title: "Capture the page", Description: "Returns a PNG."},
}

func TestSearchFindsToolsByWhatTheyDo(t *testing.T) {
	ix := search.NewIndex(small)
	for _, c := range []struct{ query, want string }{
		{"create an issue", "gh__create_issue"},
		{"pull requests", "gh__listPullRequests"},        // camelCase name split
		{"files on disk", "fs__read_file"},               // plural stemmed; ties by name
		{"headline of a bug report", "gh__create_issue"}, // parameter description
		{"charset", "fs__write_file"},                    // parameter in $defs
		{"capture", "web__screenshot"},                   // title
		{"open a ticket", "gh__create_issue"},            // related word
		{"list PRs", "gh__listPullRequests"},             // abbreviation
	} {
		got := ix.Search(c.query, 5)
		if len(got) == 0 || got[0].Name != c.want {
			t.Errorf("Search(%q) = %v, want %s first", c.query, names(got), c.want)
		}
	}
}

func TestSearchTiesComeInNameOrder(t *testing.T) {
	var docs []search.Doc
	for _, n := range []string{"c__x", "a__x", "b__x"} {
		docs = append(docs, search.Doc{Name: n, Service: "svc", Tool: "x", Description: "Same words."})
	}
	got := search.NewIndex(docs).Search("same words", 10)
	if !slices.Equal(names(got), []string{"a__x", "b__x", "c__x"}) || got[0].Score != got[2].Score {
		t.Errorf("ties: %v", got)
	}
}

func TestSearchLimitAndNoMatch(t *testing.T) {
	ix := search.NewIndex(small)
	if got := ix.Search("file", 1); len(got) != 1 {
		t.Errorf("limit 1 gave %d results", len(got))
	}
	if got := ix.Search("file", -1); len(got) != 2 {
		t.Errorf("no limit gave %v", names(got))
	}
	for _, q := range []string{"", "the of and", "zyxxy"} {
		if got := ix.Search(q, 10); len(got) != 0 {
			t.Errorf("Search(%q) = %v, want nothing", q, names(got))
		}
	}
}

func TestSearchResultCarriesSummary(t *testing.T) {
	long := search.Doc{Name: "s__t", Service: "s", Tool: "t", Description: "First paragraph about widgets.\n\nDetails nobody needs in a result list."}
	got := search.NewIndex([]search.Doc{long}).Search("widgets", 1)
	if len(got) != 1 || got[0].Description != "First paragraph about widgets." || got[0].Score <= 0 {
		t.Errorf("result %+v", got)
	}
}

func TestLookupAndDuplicates(t *testing.T) {
	dup := append(slices.Clone(small), search.Doc{Name: "fs__read_file", Description: "A second definition."})
	ix := search.NewIndex(dup)
	if ix.Len() != len(small) {
		t.Errorf("Len = %d, want %d", ix.Len(), len(small))
	}
	d, ok := ix.Lookup("fs__read_file")
	if !ok || d.Description != "Read a file from disk." {
		t.Errorf("Lookup kept %+v, want the first definition", d)
	}
	if _, ok := ix.Lookup("nope"); ok {
		t.Error("Lookup found a tool that is not there")
	}
}

func TestSummary(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"  One line.  ", "One line."},
		{"Para one\nstill one.\n\nPara two.", "Para one still one."},
		{"", ""},
	} {
		if got := search.Summary(c.in); got != c.want {
			t.Errorf("Summary(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := ""
	for i := 0; i < 100; i++ {
		long += fmt.Sprintf("word%d ", i)
	}
	got := []rune(search.Summary(long))
	if len(got) > 300 || got[len(got)-1] != '…' {
		t.Errorf("a long description is summarised as %d runes ending %q", len(got), got[len(got)-1])
	}
}

// FuzzSearch checks that any query is answered without panicking, in
// order, within the limit, and the same way twice.
func FuzzSearch(f *testing.F) {
	ix := search.NewIndex(small)
	for _, s := range []string{"create issue", "", "PR PR pr", "\xff\xfe", "files files files", "ÄÖÜ ß"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, q string, limit int) {
		limit = limit%20 + 1
		if limit < 1 {
			limit = 1
		}
		a, b := ix.Search(q, limit), ix.Search(q, limit)
		if len(a) > limit || !slices.Equal(a, b) {
			t.Fatalf("Search(%q, %d) = %v then %v", q, limit, a, b)
		}
		for i := 1; i < len(a); i++ {
			if a[i].Score > a[i-1].Score || a[i].Score == a[i-1].Score && a[i].Name < a[i-1].Name {
				t.Fatalf("out of order: %v", a)
			}
		}
	})
}
