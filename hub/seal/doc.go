// Package seal makes the hub's own opaque values that pass through a
// client and come back — a task handle today (decision 0211), a
// requestState of the hub's should one be made (decision 0195) — tamper
// evident: a value is its payload and an HMAC-SHA256 of it under a key of
// the hub's, and one that does not carry its HMAC is refused. A seal hides
// nothing: the payload is readable by whoever holds the value.
package seal
