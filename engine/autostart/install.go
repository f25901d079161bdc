package autostart

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// A Backup takes a copy of a file before it is replaced or removed (a
// missing one is recorded as absent, so a restore removes what was added):
// engine/backup's Set.
type Backup interface {
	Add(path string) error
}

// Write backs up each file's path and writes the file, atomically, with
// its mode. A unit a person wrote by hand at the same path (the README
// once showed one) is in the backup set.
func Write(sys fsys.System, bak Backup, files []File) error {
	for _, f := range files {
		if err := bak.Add(f.Path); err != nil {
			return err
		}
		if err := sys.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
		if err := sys.WriteFile(f.Path, f.Data, f.Mode); err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
		if err := sys.Chmod(f.Path, f.Mode); err != nil {
			return fmt.Errorf("%s: %w", f.Path, err)
		}
	}
	return nil
}

// Remove backs up and removes each path that exists, and returns those it
// removed.
func Remove(sys fsys.System, bak Backup, paths []string) ([]string, error) {
	var removed []string
	for _, p := range paths {
		if _, err := sys.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := bak.Add(p); err != nil {
			return removed, err
		}
		if err := sys.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("%s: %w", p, err)
		}
		removed = append(removed, p)
	}
	return removed, nil
}

// Leftovers are the files install writes for goos that exist without a
// record (a record lost, or files from an older chronicle) and begin with
// Marker: uninstall removes them too, and nothing a person wrote.
func Leftovers(sys fsys.Reader, goos string, d Dirs, chronicleHome string) []string {
	j := Job{Binary: "/chronicle", ChronicleHome: chronicleHome, Every: MinEvery, Serve: true}
	files, _ := Files(goos, d, j)
	var out []string
	for _, f := range files {
		if b, err := sys.ReadFile(f.Path); err == nil && ours(b) {
			out = append(out, f.Path)
		}
	}
	return out
}

// ours reports whether a file's first lines carry Marker (in UTF-8, or in
// the UTF-16 of a Windows task).
func ours(b []byte) bool {
	head := b[:min(len(b), 1024)]
	return containsMarker(head) || containsMarker(fromUTF16LE(head))
}

func containsMarker(b []byte) bool { return bytes.Contains(b, []byte(Marker)) }

// fromUTF16LE keeps the low byte of each UTF-16 unit: enough to find the
// ASCII marker.
func fromUTF16LE(b []byte) []byte {
	out := make([]byte, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		out = append(out, b[i])
	}
	return out
}
