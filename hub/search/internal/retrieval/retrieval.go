package retrieval

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/chronicle-dev/chronicle/hub/search"
	"github.com/chronicle-dev/chronicle/hub/search/replay"
)

// Docs loads the recordings in dir as the hub would index them: one Doc per
// tool, named <service>__<tool> (every captured name is made of
// [A-Za-z0-9_-] and short enough that the hub keeps it as it is).
func Docs(dir string) ([]search.Doc, error) {
	recs, err := replay.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	var docs []search.Doc
	for _, r := range recs {
		tools, err := r.Decoded()
		if err != nil {
			return nil, err
		}
		for _, t := range tools {
			title := t.Title
			if title == "" {
				title = t.Annotations.Title
			}
			docs = append(docs, search.Doc{
				Name: r.Service + "__" + t.Name, Service: r.Service, Tool: t.Name, Title: title,
				Description: t.Description, InputSchema: t.RawInputSchema,
			})
		}
	}
	return docs, nil
}

// A Query is a need as an agent would phrase it, and the tools that meet
// it (any one of them does).
type Query struct {
	Query    string   `json:"query"`
	Expected []string `json:"expected"`
	Split    string   `json:"split"` // "tune" or "heldout"
}

// Queries reads a query set.
func Queries(path string) ([]Query, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var qs []Query
	if err := json.Unmarshal(b, &qs); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return qs, nil
}

// A Result is how well an index answered the queries of one split. Each
// query states one need that any of its expected tools meets, so recall@k
// is the share of queries with an expected tool among the first k results,
// and MRR the mean of 1/rank of the first expected tool (0 when none is
// among the first search.MaxLimit).
type Result struct {
	Queries int
	Recall1 float64
	Recall5 float64
	MRR     float64
	// Misses are the queries with no expected tool in the first five.
	Misses []Miss
}

// A Miss is a query answered badly, with what came first instead.
type Miss struct {
	Query Query
	Rank  int // 0: not among the first search.MaxLimit
	Top   []search.Result
}

func (r Result) String() string {
	return fmt.Sprintf("%d queries: recall@1 %.3f, recall@5 %.3f, MRR %.3f", r.Queries, r.Recall1, r.Recall5, r.MRR)
}

// Evaluate answers the queries of split with ix.
func Evaluate(ix *search.Index, qs []Query, split string) Result {
	var r Result
	for _, q := range qs {
		if q.Split != split {
			continue
		}
		r.Queries++
		want := map[string]bool{}
		for _, e := range q.Expected {
			want[e] = true
		}
		found := ix.Search(q.Query, search.MaxLimit)
		rank := 0
		for i, res := range found {
			if want[res.Name] {
				rank = i + 1
				break
			}
		}
		switch {
		case rank == 1:
			r.Recall1++
			r.Recall5++
		case rank >= 2 && rank <= 5:
			r.Recall5++
		default:
			r.Misses = append(r.Misses, Miss{Query: q, Rank: rank, Top: found[:min(3, len(found))]})
		}
		if rank > 0 {
			r.MRR += 1 / float64(rank)
		}
	}
	if r.Queries > 0 {
		n := float64(r.Queries)
		r.Recall1, r.Recall5, r.MRR = r.Recall1/n, r.Recall5/n, r.MRR/n
	}
	return r
}
