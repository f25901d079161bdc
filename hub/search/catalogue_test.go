package search

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/search/replay"
)

// catalogueDocs loads the captured catalogue as the hub would index it: one
// Doc per tool, named <service>__<tool>. Every captured name is made of
// [A-Za-z0-9_-] and short enough, so the hub's ExposedName leaves it as is
// (TestCatalogueNamesNeedNoRewrite).
func catalogueDocs(t testing.TB) []Doc {
	t.Helper()
	recs, err := replay.LoadDir("testdata/catalogue")
	if err != nil {
		t.Fatal(err)
	}
	var docs []Doc
	for _, r := range recs {
		tools, err := r.Decoded()
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range tools {
			docs = append(docs, Doc{
				Name: r.Service + "__" + tool.Name, Service: r.Service, Tool: tool.Name,
				Description: tool.Description, InputSchema: tool.RawInputSchema,
			})
		}
	}
	return docs
}

// A query is one line of testdata/queries.json: a need as an agent would
// phrase it, and the tools that meet it (any one of them does).
type query struct {
	Query    string   `json:"query"`
	Expected []string `json:"expected"`
	Split    string   `json:"split"` // "tune" or "heldout"
}

func loadQueries(t testing.TB) []query {
	t.Helper()
	b, err := os.ReadFile("testdata/queries.json")
	if err != nil {
		t.Fatal(err)
	}
	var qs []query
	if err := json.Unmarshal(b, &qs); err != nil {
		t.Fatalf("testdata/queries.json: %v", err)
	}
	return qs
}
