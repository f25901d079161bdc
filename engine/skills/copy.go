package skills

import (
	"crypto/sha256"
	"errors"
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
	_, err := CopyHashed(sys, src, dst, "")
	return err
}

// ErrChanged says the folder copied is not the one expected: its hash is
// not the one the caller knew.
var ErrChanged = errors.New("the skill's files are not the ones expected")

// CopyHashed is Copy that also returns the hash (as Hash gives it) of what
// it copied, computed from the bytes as they were copied: the copy is not
// read again. When want is set and the copy's hash differs, nothing is put
// at dst and the error is ErrChanged.
func CopyHashed(sys fsys.System, src, dst, want string) (string, error) {
	if _, err := sys.Lstat(dst); err == nil {
		return "", fmt.Errorf("%s already exists", dst)
	}
	if err := sys.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", err
	}
	stage, err := sys.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".staging-")
	if err != nil {
		return "", err
	}
	defer sys.RemoveAll(stage)
	root, err := Resolve(sys, src)
	if err != nil {
		return "", fmt.Errorf("copying %s: %w", src, err)
	}
	var items []treeItem
	if err := copyTree(sys, root, "", stage, &items); err != nil {
		return "", fmt.Errorf("copying %s: %w", src, err)
	}
	hash := digest(items)
	if want != "" && hash != want {
		return hash, fmt.Errorf("copying %s: %w", src, ErrChanged)
	}
	if err := sys.Chmod(stage, 0o755); err != nil {
		return "", err
	}
	if err := sys.RenameNew(stage, dst); err != nil {
		return "", fmt.Errorf("copying %s to %s: %w", src, dst, err)
	}
	return hash, nil
}

func copyTree(sys fsys.System, root, rel, dst string, items *[]treeItem) error {
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
			if linksOutside(root, path, link) {
				return fmt.Errorf("%s links outside the skill (%s)", name, link)
			}
			if err := sys.Symlink(link, target); err != nil {
				return err
			}
			*items = append(*items, treeItem{rel: filepath.ToSlash(name), kind: 'l', link: link})
		case e.IsDir():
			if err := sys.Mkdir(target, 0o755); err != nil {
				return err
			}
			if err := copyTree(sys, root, name, dst, items); err != nil {
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
			sum := sha256.Sum256(data)
			*items = append(*items, treeItem{rel: filepath.ToSlash(name), kind: fileKind(info.Mode()), sum: sum[:]})
		default:
			return fmt.Errorf("%s is not a regular file", name)
		}
	}
	return nil
}

// linksOutside reports whether the link at path (inside the skill at root)
// with target link leads out of the skill: Copy refuses such a link, since
// what it points at would not come along.
func linksOutside(root, path, link string) bool {
	if filepath.IsAbs(link) || strings.HasPrefix(link, "/") {
		return true
	}
	r, err := filepath.Rel(root, filepath.Join(filepath.Dir(path), link))
	return err != nil || !filepath.IsLocal(r)
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
