package search_test

import (
	"testing"

	"github.com/chronicle-dev/chronicle/hub/search"
	"github.com/chronicle-dev/chronicle/hub/search/internal/retrieval"
)

func catalog(t testing.TB) []search.Doc {
	t.Helper()
	docs, err := retrieval.Docs("testdata/catalogue")
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

func queries(t testing.TB) []retrieval.Query {
	t.Helper()
	qs, err := retrieval.Queries("testdata/queries.json")
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// heldOutFloor is the least held-out recall@5 the ranker may fall to. The
// issue asks for 0.9; the ranker measured 0.714 when it was frozen, its
// parameters and lexicon chosen on the tune split alone (see
// docs/decisions/0010-tool-search-ranking.md). The floor catches a
// regression; raise it with the ranker, never lower it to pass.
const heldOutFloor = 0.7

// heldOutTarget is the recall@5 the issue asks of search mode.
const heldOutTarget = 0.9

// TestHeldOutRecall checks the ranker on the held-out queries, which were
// never used to tune it: the share of them with a tool that meets the need
// among the first five results must not fall below heldOutFloor.
func TestHeldOutRecall(t *testing.T) {
	ix := search.NewIndex(catalog(t))
	qs := queries(t)
	tune, held := retrieval.Evaluate(ix, qs, "tune"), retrieval.Evaluate(ix, qs, "heldout")
	t.Logf("tune:     %v", tune)
	t.Logf("held out: %v", held)
	if held.Recall5 < heldOutTarget {
		t.Logf("held-out recall@5 %.3f is below the issue's target %.1f", held.Recall5, heldOutTarget)
	}
	if held.Recall5 < heldOutFloor {
		t.Errorf("held-out recall@5 fell to %.3f, below the floor %.2f; misses:", held.Recall5, heldOutFloor)
		for _, m := range held.Misses {
			t.Logf("  %q: rank %d", m.Query.Query, m.Rank)
		}
	}
}

// BenchmarkRetrieval reports retrieval quality on both splits; its time is
// that of answering every query once.
func BenchmarkRetrieval(b *testing.B) {
	ix := search.NewIndex(catalog(b))
	qs := queries(b)
	b.ResetTimer()
	for range b.N {
		for _, q := range qs {
			ix.Search(q.Query, search.DefaultLimit)
		}
	}
	b.StopTimer()
	for _, split := range []string{"tune", "heldout"} {
		r := retrieval.Evaluate(ix, qs, split)
		b.ReportMetric(r.Recall1, split+"-recall@1")
		b.ReportMetric(r.Recall5, split+"-recall@5")
		b.ReportMetric(r.MRR, split+"-MRR")
	}
}
