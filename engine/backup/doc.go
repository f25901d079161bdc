// Package backup keeps what chronicle moves or changes but does not own,
// under ~/.chronicle/backups, through the filesystem seam:
//
//   - a copy of every file chronicle is about to change, in one set per
//     operation; the last Keep such sets are kept, older ones pruned;
//   - the very first copy of every file — its state before chronicle ever
//     touched it — kept forever in the set original/;
//   - whatever apply --replace moves out of the way (a real folder, a
//     foreign link, a file), in a set marked kept: it stays until the user
//     removes it with Prune (chronicle backups prune), never by rotation.
//
// Set ids are the creation time to the nanosecond, made unique by an
// exclusive mkdir; pruning never removes the set being written. Sets are
// 0700 folders of 0600 files: tool configs may hold plain-text secrets.
package backup
