package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// A Version is a file's content as read, with the identity of the file it
// was read from (device and inode where the platform has them), so that
// Install can tell in one stat whether the file was replaced since.
type Version struct {
	Exists bool
	Data   []byte
	id     fileID
	info   fs.FileInfo
}

// unchanged reports, from one stat, whether the file at path may still be
// the version v: the same file, size and modification time. A false answer
// is certain; a true one is confirmed by comparing bytes after the exchange.
func (v Version) unchanged(path string) bool {
	info, err := os.Stat(path)
	if !v.Exists {
		return err != nil // still nothing there
	}
	if err != nil || v.info == nil {
		return false
	}
	return idOf(info) == v.id && info.Size() == v.info.Size() && info.ModTime().Equal(v.info.ModTime())
}

// ReadVersion reads the file at path (through a symlink) and its identity
// from the same open file. A missing file is a Version that does not exist.
func ReadVersion(path string) (Version, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Version{}, nil
	}
	if err != nil {
		return Version{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Version{}, fmt.Errorf("%s: %w", path, err)
	}
	// Read in one go into room for the size the file has, as os.ReadFile
	// does (io.ReadAll would grow and copy a large file a dozen times), with
	// bytes.MinRead more to see the end, or a file still growing.
	buf := bytes.NewBuffer(make([]byte, 0, max(info.Size(), 0)+bytes.MinRead))
	if _, err := buf.ReadFrom(f); err != nil {
		return Version{}, fmt.Errorf("%s: %w", path, err)
	}
	data := buf.Bytes()
	return Version{Exists: true, Data: data, id: idOf(info), info: info}, nil
}
