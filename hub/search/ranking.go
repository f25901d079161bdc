package search

// Params are the ranking constants: BM25's saturation K1, and per field
// (name, service, lead, description, parameter names, parameter
// descriptions) a weight and a length normalisation B in [0, 1].
type Params struct {
	K1 float64
	// Related is the weight of a term related to a query's term (see
	// relatedGroups), against 1 for the query's own.
	Related float64
	Weight  [numFields]float64
	B       [numFields]float64
}

// DefaultParams returns the constants tuned on the tune split of
// testdata/queries.json (docs/decisions/0010-tool-search-ranking.md),
// rounded from the optimum the tune command found.
func DefaultParams() Params { return defaultParams }

var defaultParams = Params{
	K1:      3,
	Related: 0.5,
	Weight:  [numFields]float64{4, 6, 1, 0.5, 1, 0.25},
	B:       [numFields]float64{0.5, 0.75, 0.5, 0.9, 0.5, 0.5},
}
