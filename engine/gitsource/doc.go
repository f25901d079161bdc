// Package gitsource holds the rules for where a git skill may come from —
// https remotes without credentials in the URL — and its default size cap,
// shared by the configuration's validation and the fetcher without either
// importing the other.
package gitsource
