// Package seal makes the hub's own opaque values that pass through a
// client and come back — a task handle (decision 0211), the requestState
// of a call the hub holds for a 2026-07-28 client (decision 0230) — tamper
// evident: a value is its payload and an HMAC-SHA256 of it under a key of
// the hub's, and one that does not carry its HMAC is refused. A seal hides
// nothing: the payload is readable by whoever holds the value.
package seal
