package search_test

import (
	"fmt"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/search"
)

// manyTools returns about n tools: the captured catalogue repeated under
// other service names, as a hub with many similar services would hold.
func manyTools(b *testing.B, n int) []search.Doc {
	base := catalog(b)
	var docs []search.Doc
	for copy := 0; len(docs) < n; copy++ {
		for _, d := range base {
			d.Service = fmt.Sprintf("%s%d", d.Service, copy)
			d.Name = d.Service + "__" + d.Tool
			docs = append(docs, d)
		}
	}
	return docs[:n]
}

// BenchmarkNewIndex builds the index of 2,000 tools, as the hub does on
// every catalogue change.
func BenchmarkNewIndex(b *testing.B) {
	docs := manyTools(b, 2000)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		search.NewIndex(docs)
	}
}

// BenchmarkSearch answers one agent-style query over 2,000 tools.
func BenchmarkSearch(b *testing.B) {
	ix := search.NewIndex(manyTools(b, 2000))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		ix.Search("take a screenshot of the current page", search.DefaultLimit)
	}
}
