// Package backup keeps copies of the files chronicle is about to change but
// does not own, under ~/.chronicle/backups: one set per operation, named by
// its time, the last Keep sets kept, and the very first copy of every file —
// its state before chronicle ever touched it — kept forever under original/.
// Sets are 0700 folders of 0600 files: tool configs may hold the user's own
// plain-text secrets.
package backup
