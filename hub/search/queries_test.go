package search_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/search"
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func TestCatalogNamesNeedNoRewrite(t *testing.T) {
	docs := catalog(t)
	seen := map[string]bool{}
	for _, d := range docs {
		if !validName.MatchString(d.Name) {
			t.Errorf("%s: the hub would rewrite this name", d.Name)
		}
		if seen[d.Name] {
			t.Errorf("%s: listed twice", d.Name)
		}
		seen[d.Name] = true
	}
	if len(docs) < 300 {
		t.Errorf("the catalogue holds %d tools, want at least 300", len(docs))
	}
}

// TestQueriesAreFair lints testdata/queries.json: every expected tool
// exists, a third of the queries is held out, and no query shares more than
// one content word with the name of a tool it expects (the name split into
// words, service included, stop words left out, words compared by stem), so
// the set measures finding a tool by what it does, not by its name.
func TestQueriesAreFair(t *testing.T) {
	names := map[string]search.Doc{}
	for _, d := range catalog(t) {
		names[d.Name] = d
	}
	qs := queries(t)
	if len(qs) < 150 {
		t.Errorf("%d queries, want at least 150", len(qs))
	}
	held := 0
	seen := map[string]bool{}
	for _, q := range qs {
		switch q.Split {
		case "heldout":
			held++
		case "tune":
		default:
			t.Errorf("%q: split %q, want tune or heldout", q.Query, q.Split)
		}
		if seen[strings.ToLower(q.Query)] {
			t.Errorf("%q is listed twice", q.Query)
		}
		seen[strings.ToLower(q.Query)] = true
		if len(q.Expected) == 0 {
			t.Errorf("%q expects no tool", q.Query)
		}
		for _, name := range q.Expected {
			d, ok := names[name]
			if !ok {
				t.Errorf("%q expects %s, which the catalogue does not hold", q.Query, name)
				continue
			}
			if shared := sharedTerms(q.Query, d.Service+" "+d.Tool); len(shared) > 1 {
				t.Errorf("%q shares %v with the name %s", q.Query, shared, name)
			}
		}
	}
	if share := float64(held) / float64(len(qs)); share < 0.3 || share > 0.37 {
		t.Errorf("%d of %d queries are held out, want a third", held, len(qs))
	}
}

// sharedTerms returns the distinct terms of query that name also has.
func sharedTerms(query, name string) []string {
	in := map[string]bool{}
	for _, term := range search.Terms(name) {
		in[term] = true
	}
	var shared []string
	for _, term := range search.Terms(query) {
		if in[term] {
			shared = append(shared, term)
			delete(in, term)
		}
	}
	return shared
}

func TestSharedTermsComparesStems(t *testing.T) {
	got := sharedTerms("read several source files at once", "filesystem read_multiple_files")
	if strings.Join(got, ",") != "read,file" {
		t.Errorf("shared %v, want read and file", got)
	}
	if got := sharedTerms("the of and", "the_of_and"); len(got) != 0 {
		t.Errorf("stop words shared: %v", got)
	}
}
