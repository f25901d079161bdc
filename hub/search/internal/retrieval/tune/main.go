// Command tune searches for ranking parameters that answer the tune split
// of hub/search/testdata/queries.json best, by coordinate descent from
// search.DefaultParams: each constant in turn takes the value from its grid
// that most improves recall@5 + MRR/2, for a few rounds. It never reads
// the held-out split, which stays a fair check of the result.
//
// The lexicon (relatedGroups) was grown from the tune split's misses, so the
// tune split flatters whatever works with it. -lexicon=false ranks without
// it, as for queries whose words no group foresaw: a fairer test of any
// general expansion (docs/decisions/0040-exposure-modes-and-token-costs.md
// records two tried that way).
//
//	go run ./hub/search/internal/retrieval/tune [-lexicon=false]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/chronicle-dev/chronicle/hub/search"
	"github.com/chronicle-dev/chronicle/hub/search/internal/retrieval"
)

const split = "tune"

func main() {
	lexicon := flag.Bool("lexicon", true, "rank with the lexicon of related words")
	flag.Parse()
	docs, err := retrieval.Docs("hub/search/testdata/catalogue")
	if err != nil {
		fail(err)
	}
	all, err := retrieval.Queries("hub/search/testdata/queries.json")
	if err != nil {
		fail(err)
	}
	var qs []retrieval.Query
	for _, q := range all {
		if q.Split == split {
			qs = append(qs, q)
		}
	}
	ix := search.NewIndex(docs)
	p := search.DefaultParams()
	relatedGrid := []float64{0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1}
	if !*lexicon {
		p.Related, relatedGrid = 0, []float64{0}
	}
	score := func(p search.Params) (retrieval.Result, float64) {
		r := retrieval.Evaluate(ix.WithParams(p), qs, split)
		return r, r.Recall5 + r.MRR/2
	}
	best, bestScore := score(p)
	fmt.Printf("start %v\n      %+v\n", best, p)
	weights := []float64{0, 0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 12}
	bs := []float64{0, 0.25, 0.5, 0.75, 0.9, 1}
	for round := 1; round <= 3; round++ {
		improved := false
		try := func(set func(*search.Params, float64), grid []float64) {
			for _, v := range grid {
				c := p
				set(&c, v)
				if r, s := score(c); s > bestScore+1e-9 {
					p, best, bestScore, improved = c, r, s, true
				}
			}
		}
		try(func(c *search.Params, v float64) { c.K1 = v }, []float64{0.6, 0.9, 1.2, 1.6, 2, 3, 4, 6, 10})
		try(func(c *search.Params, v float64) { c.Related = v }, relatedGrid)
		for f := range len(p.Weight) {
			try(func(c *search.Params, v float64) { c.Weight[f] = v }, weights)
			try(func(c *search.Params, v float64) { c.B[f] = v }, bs)
		}
		fmt.Printf("round %d %v\n      %+v\n", round, best, p)
		if !improved {
			break
		}
	}
	for _, m := range best.Misses {
		fmt.Printf("miss %q rank %d; first:", m.Query.Query, m.Rank)
		for _, t := range m.Top {
			fmt.Printf(" %s", t.Name)
		}
		fmt.Println()
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "tune:", err)
	os.Exit(1)
}
