// Package retrieval measures how well a search.Index finds tools: it loads
// the captured catalogue and the query set of hub/search/testdata, and
// scores an index on one split of the queries. The tests use it to check
// the held-out split; the tune command uses it on the tune split only.
package retrieval
