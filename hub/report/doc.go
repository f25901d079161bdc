// Package report says what the hub reports of itself on /api/status and in
// the console: each service's state, tools and token costs, the endpoints
// worth showing with what each lists, and the client sessions. It reads the
// hub's parts (the catalogue, the scopes, the sessions) and changes none.
package report
