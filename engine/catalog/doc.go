// Package catalog reads and writes the catalogue cache,
// ~/.chronicle/catalog.json: what each service listed the last time the
// HTTP hub listed it (unscoped: every tool, whatever the policy), with the
// token cost of each tool's definition as the hub lists it. Descriptions and
// schemas are kept as clients get them, with every secret the hub resolved
// masked.
//
// The hub writes it after each catalogue change, merged by service (a
// service that failed keeps its last listing; a service no longer declared
// is dropped) and replaced atomically. It is derived data and lock-exempt
// (docs/locks.md): plan, scan and `chronicle tools` read token counts from
// it without loading the tokenizer.
package catalog
