package toolfile

import (
	"io/fs"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// StatSettled stats path. A stat racing another program's rename over the
// file can find the replaced file already unlinked (no hard links left):
// that is no fact about the file at path, so it looks again.
func StatSettled(r fsys.Reader, path string) (fs.FileInfo, error) {
	var info fs.FileInfo
	var err error
	for range 8 {
		if info, err = r.Stat(path); err != nil || !unlinked(info) {
			return info, err
		}
	}
	return info, err
}
