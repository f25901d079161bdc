// Package syncstatus owns ~/.chronicle/sync-status.json, the outcome of the
// last chronicle sync: when it ran, the commit it followed, what it applied
// and left, the error, and the exit code with what that code means (SPEC
// §9). A timer runs sync with nobody watching; this file is how a person,
// doctor, machine and every interactive command learn how it went.
package syncstatus
