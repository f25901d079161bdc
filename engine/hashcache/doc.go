// Package hashcache remembers the SHA-256 of the files inside skill trees
// across runs, so that a plan of thousands of unchanged skills reads none
// of their files.
//
// A Cache is the skills.FileSums of a skills.Hasher (Cache.Hasher): the
// Hasher asks it for each file's sum, and it answers from the cache when
// the file's identity — device, inode, size, modification and change times
// in nanoseconds — is the one recorded. Git's racily-clean rule applies: an entry whose file was modified or changed
// at or after the moment the cache file was written is not trusted, so a
// same-size rewrite within one clock tick is hashed again, never served
// stale. Entries made during a run are used from the next run on.
//
// The cache covers skill trees only: never tool config files, and never
// the Before observations of a plan (which read the machine as it is).
// Only commands holding the state lock write it (apply, sync); plan only
// reads it. A corrupt or foreign cache file counts as empty, never as an
// error, and the file holds at most MaxEntries entries.
//
// Checked is the same idea for configuration files: the SHA-256 of the
// large files that passed engine/config's checks before parsing.
package hashcache
