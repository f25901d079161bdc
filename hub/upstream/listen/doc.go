// Package listen holds a 2026-07-28 upstream's subscriptions/listen
// stream for the hub: the stateless revision announces a change of its
// lists only on such streams, so the hub keeps one open to each upstream
// it reaches in that revision and hears what the upstream's sessions
// would not (decision 0206).
package listen
