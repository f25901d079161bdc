// Package session is the hub's one owner of client sessions: a Session is
// what the hub keeps about one (the endpoint it was made on, its folder,
// what it listed, its requests in flight, its roots handshake), and the
// Registry holds every Session for exactly as long as its transport's
// session lives, makes room under the session cap and sweeps sessions
// nobody used. It also carries what a transport learns of a request (its
// Endpoint, root and called tool) in the request's context to the call
// path. It imports nothing of the hub's.
package session
