package safefile

import "golang.org/x/sys/unix"

// exchange swaps two paths atomically with renamex_np(RENAME_SWAP), macOS's
// counterpart of Linux's RENAME_EXCHANGE: both must exist (else
// fs.ErrNotExist). A filesystem that cannot swap answers ENOTSUP, and the
// callers fall back to renames.
func exchange(a, b string) error {
	return unix.RenamexNp(a, b, unix.RENAME_SWAP)
}

// renameNoReplace renames a to b atomically, failing with fs.ErrExist when
// b exists (renamex_np RENAME_EXCL).
func renameNoReplace(a, b string) error {
	return unix.RenamexNp(a, b, unix.RENAME_EXCL)
}
