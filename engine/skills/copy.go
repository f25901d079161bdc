package skills

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// Copy copies the skill folder src to dst, which must not exist, through a
// staging folder beside dst and one rename: dst is either absent or
// complete, never half-copied. Symlinks inside the skill are copied as links
// when they stay inside it and refused otherwise. src may itself be a link
// to the skill's folder.
func Copy(sys fsys.System, src, dst string) error {
	if _, err := sys.Lstat(dst); err == nil {
		return fmt.Errorf("%s already exists", dst)
	}
	if err := sys.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	stage, err := sys.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".staging-")
	if err != nil {
		return err
	}
	defer sys.RemoveAll(stage)
	root, err := Resolve(sys, src)
	if err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	if err := copyTree(sys, root, "", stage); err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	if err := sys.Chmod(stage, 0o755); err != nil {
		return err
	}
	if err := sys.RenameNew(stage, dst); err != nil {
		return fmt.Errorf("copying %s to %s: %w", src, dst, err)
	}
	return nil
}

func copyTree(sys fsys.System, root, rel, dst string) error {
	entries, err := sys.ReadDir(filepath.Join(root, rel))
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := filepath.Join(rel, e.Name())
		path, target := filepath.Join(root, name), filepath.Join(dst, name)
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			link, err := sys.Readlink(path)
			if err != nil {
				return err
			}
			resolved := link
			if !filepath.IsAbs(link) {
				resolved = filepath.Join(filepath.Dir(path), link)
			}
			if r, err := filepath.Rel(root, filepath.Clean(resolved)); err != nil || !filepath.IsLocal(r) || strings.HasPrefix(link, "/") {
				return fmt.Errorf("%s links outside the skill (%s)", name, link)
			}
			if err := sys.Symlink(link, target); err != nil {
				return err
			}
		case e.IsDir():
			if err := sys.Mkdir(target, 0o755); err != nil {
				return err
			}
			if err := copyTree(sys, root, name, dst); err != nil {
				return err
			}
		case e.Type().IsRegular():
			info, err := e.Info()
			if err != nil {
				return err
			}
			data, err := sys.ReadFile(path)
			if err != nil {
				return err
			}
			if err := sys.WriteNew(target, data, info.Mode().Perm()); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s is not a regular file", name)
		}
	}
	return nil
}

// Resolve follows symlinks at path itself (not inside it) and returns where
// they lead.
func Resolve(r fsys.Reader, path string) (string, error) {
	for range 40 {
		info, err := r.Lstat(path)
		if err != nil {
			return "", err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := r.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = filepath.Clean(link)
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}
