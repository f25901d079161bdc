package safefile

import "golang.org/x/sys/unix"

// exchange swaps two paths atomically with renameat2(RENAME_EXCHANGE): both
// must exist (else fs.ErrNotExist).
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// renameNoReplace renames a to b atomically, failing with fs.ErrExist when
// b exists (renameat2 RENAME_NOREPLACE).
func renameNoReplace(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_NOREPLACE)
}
