// Package hashcache remembers the SHA-256 of the files inside skill trees
// across runs, so that a plan of thousands of unchanged skills reads none
// of their files.
//
// A Cache is the skills.FileSums of a skills.Hasher (Cache.Hasher): the
// Hasher asks it for each file's sum, and it answers from the cache when
// the file's identity — device, inode, size, modification and change times
// in nanoseconds — is the one recorded. Git's racily-clean rule applies at
// the filesystem's granularity: an entry is trusted only when the file's
// times are strictly older than the cache file's own write time by a whole
// timestamp unit (read off the stamps: two seconds for whole seconds), and
// recorded only when they are older than the read by that unit and a
// kernel tick, so a same-size rewrite within one timestamp is hashed
// again, never served stale. Entries made during a run are used from the
// next run on.
//
// The cache covers skill trees only, never tool config files. A plan's
// Before of a central copy may come from it: apply observes every target
// again, reading every file, before it writes, so a stale entry can only
// make apply refuse, never write over something (decision 0050).
// Only commands holding the state lock write it (apply, sync); plan only
// reads it. Apply hashes the central copies it wrote through it once they
// are written, so the plans after it read none of their files (decision
// 0140). A corrupt or foreign cache file counts as empty, never as an
// error, and the file holds at most MaxEntries entries.
//
// Checked is the same idea for configuration files: the SHA-256 of the
// large files that passed engine/config's checks before parsing.
package hashcache
