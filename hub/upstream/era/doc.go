// Package era holds the session-era connection to an upstream the hub
// speaks to in the 2026-07-28 revision (decision 0236): opened once, on the
// first request of a session-era client that needs it, with what it offers
// by name, so that requests it does not offer (or every request, when the
// upstream refused initialize) go statelessly instead.
package era
