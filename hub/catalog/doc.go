// Package catalog is the hub's aggregated catalogue: every service's tools,
// prompts and resources under the names the hub exposes them by
// (<service>__<tool>), built once per reload or upstream change and read by
// every endpoint; what one endpoint offers and lists of it (a View, found
// by where a request came from: its profile, its service endpoint, its
// root), the search index over exactly that, and the token cost of each
// definition, counted once. It imports nothing else of the hub's but the
// search index and the tokenizer: the call path and the transports read it.
package catalog
