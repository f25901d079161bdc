package safefile

import (
	"fmt"
	"os"
)

// ReplaceDir puts the folder staged in place of the folder current. On
// Linux and macOS the two are exchanged in one atomic step (renameat2
// RENAME_EXCHANGE, renamex_np RENAME_SWAP), so there is no moment without
// current and links into it never dangle; current's old content is then at
// staged. Elsewhere, or when
// the filesystem refuses, current is renamed to aside and staged into its
// place. The caller removes staged and aside afterwards.
func ReplaceDir(staged, current, aside string) error {
	if exchange(staged, current) == nil {
		return nil
	}
	return replaceByRename(staged, current, aside)
}

// replaceByRename moves current aside and staged into its place.
func replaceByRename(staged, current, aside string) error {
	if err := os.Rename(current, aside); err != nil {
		return err
	}
	if err := os.Rename(staged, current); err != nil {
		if rerr := os.Rename(aside, current); rerr != nil {
			return fmt.Errorf("%w; and putting the old content back failed (it is at %s): %v", err, aside, rerr)
		}
		return err
	}
	return nil
}
