// Package console is the hub's management API (/api/…: status, services,
// tools, the live log, calls and restarts on a person's behalf, the scan and
// takeover review, the Skills Hub) and the web console's files. Its
// handlers are rows of the hub's route table, each behind the guard of its
// row; it reads the hub through the narrow Hub interface (what the hub
// reports, the state, the catalogue, one call through the call path, a
// restart) and holds nothing of the hub's own, so it imports the catalogue
// and the inspector but never the hub.
package console
