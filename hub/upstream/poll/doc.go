// Package poll passes SSE polling (SEP-1699) through the hub: the HTTP
// transport of a Streamable HTTP upstream that, when the upstream ends a
// call's stream before the response, ends the hub's client's stream of the
// call too (session.Stream.Poll), so that the client polls the hub as it
// would the server (decision 0200). It imports hub/session and hub/wire.
package poll
