// Package listing keeps the hub's catalogue: it lists every offered
// service on its own (under the hub's lifetime and its own timeout, one
// listing per service at a time), builds the one catalog.Catalog every
// endpoint reads from the last listing of each, lets a session's first
// list wait a grace period for services never listed, marks listings stale
// when a reload or an upstream says they changed, and writes the catalogue
// cache (~/.chronicle/catalog.json) plan and scan read. It knows a service
// only by its Backend's List: it imports the catalogue, never the hub.
package listing
