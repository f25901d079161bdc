package gitskill

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// write creates the checked skill s in the new folder dir (made through
// sys) from the git objects in store. Every write inside it goes through an
// os.Root on dir, so nothing can land outside it, and files are created
// exclusively. Afterwards every
// symlink is resolved inside the root, which catches targets that leave the
// skill folder through another symlink.
func (s *checked) write(sys fsys.System, store storer.EncodedObjectStorer, dir string) error {
	if err := sys.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, e := range s.entries {
		var err error
		switch e.kind {
		case kindDir:
			err = root.Mkdir(e.rel, 0o755)
		case kindLink:
			err = root.Symlink(e.link, e.rel)
		default:
			err = writeBlob(root, store, e)
		}
		if err != nil {
			return fmt.Errorf("skill %q: writing %q: %w", s.name, e.rel, err)
		}
	}
	for _, e := range s.entries {
		if e.kind != kindLink {
			continue
		}
		if _, err := root.Stat(e.rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("skill %q (folder %q): symlink %q: its target %q leads outside the skill folder: %w", s.name, s.path, e.rel, e.link, err)
		}
	}
	return nil
}

// writeBlob writes one file entry, refusing content longer than the size
// the check saw.
func writeBlob(root *os.Root, store storer.EncodedObjectStorer, e entry) error {
	blob, err := object.GetBlob(store, e.hash)
	if err != nil {
		return err
	}
	r, err := blob.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	mode := os.FileMode(0o644)
	if e.kind == kindExec {
		mode = 0o755
	}
	f, err := root.OpenFile(e.rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, io.LimitReader(r, e.size+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != e.size {
		err = fmt.Errorf("the blob holds %d bytes, not %d", n, e.size)
	}
	return err
}
