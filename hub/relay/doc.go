// Package relay is what the hub holds between its clients and its
// upstreams, below the call path: the settings of one reload (published
// whole), what a request sees (Scopes: its reach and its view of the
// catalogue), the upstreams (the shared pool and each session's own) and
// what flows back from them (PassThrough: progress, server→client
// requests, logging, subscriptions, the status of tasks handed to clients), what the hub does when client sessions
// come and go (ClientHooks), which list changes reach which session
// (Announcer, with each session's outbound filter), the hub's lifetime, and
// a 2026-07-28 client's call to a session-era upstream, held (held.Calls)
// while the client answers what the upstream asks (crossera.go).
// Each type owns what it holds and is given what it reads; the hub (the
// assembly and the call path) imports it, never the reverse.
package relay
