package search

import (
	"math"
	"sort"
)

// A Result is one tool that matched a query.
type Result struct {
	Name string `json:"name"`
	// Description is the opening of the tool's description (see Summary).
	Description string  `json:"description"`
	Score       float64 `json:"score"`
}

// The fields of a tool that are ranked, each with its own weight and
// length normalisation.
const (
	fieldName = iota
	fieldService
	// fieldLead is the opening of the description (Summary), which says
	// what the tool is for; the rest often holds usage rules and caveats.
	fieldLead
	fieldDescription
	fieldParamName
	fieldParamDescription
	numFields
)

// A posting is one tool's occurrences of a term, field by field.
type posting struct {
	doc int32
	tf  [numFields]uint16
}

// An Index ranks a fixed set of tools; build a new one when the set
// changes. It is safe for concurrent use.
type Index struct {
	docs     []Doc
	byName   map[string]int
	postings map[string][]posting
	lens     [][numFields]float32
	avgLen   [numFields]float64
	params   Params
	schemas  []compiledSchema
}

// NewIndex indexes docs with the tuned parameters (DefaultParams). Names
// are expected to be unique; of two docs with one name, the first is kept.
func NewIndex(docs []Doc) *Index {
	return NewIndexWith(docs, DefaultParams())
}

// NewIndexWith indexes docs with explicit ranking parameters.
func NewIndexWith(docs []Doc, p Params) *Index {
	return build(docs, p)
}

// WithParams returns an index over the same tools that ranks with p (for
// tuning: the postings are shared, not rebuilt).
func (ix *Index) WithParams(p Params) *Index {
	c := *ix
	c.params = p
	return &c
}

// Len returns the number of tools in the index.
func (ix *Index) Len() int { return len(ix.docs) }

// Lookup returns the tool with the exposed name.
func (ix *Index) Lookup(name string) (Doc, bool) {
	i, ok := ix.byName[name]
	if !ok {
		return Doc{}, false
	}
	return ix.docs[i], true
}

// Search returns up to limit tools that match query, best first; tools of
// equal score come in name order, so the same index and query always give
// the same list. A tool matches when it has at least one of the query's
// terms; a query of stop words only matches nothing.
func (ix *Index) Search(query string, limit int) []Result {
	scores := ix.scores(query)
	var hits []int
	for i, s := range scores {
		if s > 0 {
			hits = append(hits, i)
		}
	}
	sort.Slice(hits, func(a, b int) bool {
		sa, sb := scores[hits[a]], scores[hits[b]]
		if sa != sb {
			return sa > sb
		}
		return ix.docs[hits[a]].Name < ix.docs[hits[b]].Name
	})
	if limit >= 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]Result, len(hits))
	for i, h := range hits {
		out[i] = Result{Name: ix.docs[h].Name, Description: Summary(ix.docs[h].Description), Score: scores[h]}
	}
	return out
}

// scores returns every tool's BM25F score for query, in Robertson and
// Zaragoza's form: a tool's field frequencies of a concept (a query term
// and, at less weight, its related terms) are normalised by field length
// and weighted, summed into one pseudo-frequency, and saturated once; the
// concept's rarity (idf) counts the tools that have any of its terms.
func (ix *Index) scores(query string) []float64 {
	scores := make([]float64, len(ix.docs))
	tf := make([]float64, len(ix.docs))
	var touched []int32
	n := float64(len(ix.docs))
	p := ix.params
	for _, c := range queryConcepts(query, p.Related) {
		touched = touched[:0]
		for i, t := range c.terms {
			for _, post := range ix.postings[t] {
				var f float64
				for fi := range numFields {
					if post.tf[fi] == 0 || ix.avgLen[fi] == 0 {
						continue
					}
					norm := 1 - p.B[fi] + p.B[fi]*float64(ix.lens[post.doc][fi])/ix.avgLen[fi]
					f += p.Weight[fi] * float64(post.tf[fi]) / norm
				}
				if f == 0 {
					continue
				}
				if tf[post.doc] == 0 {
					touched = append(touched, post.doc)
				}
				tf[post.doc] += c.weights[i] * f
			}
		}
		if len(touched) == 0 {
			continue
		}
		df := float64(len(touched))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, d := range touched {
			scores[d] += idf * tf[d] * (p.K1 + 1) / (p.K1 + tf[d])
			tf[d] = 0
		}
	}
	return scores
}
