package jsonfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"github.com/chronicle-dev/chronicle/engine/safefile"
)

// A Want computes the new value of one member from its current value (nil
// when absent), both standard JSON. Returning nil removes the member.
type Want func(old []byte) ([]byte, error)

// mangle lets a test corrupt what is about to be written, to prove that a
// write that is not the intended change is rolled back.
var mangle = func(b []byte) []byte { return b }

// attempts bounds the retries when the file changes between reading it and
// writing it (Claude Code rewrites ~/.claude.json all the time).
const attempts = 5

// Update sets or removes member name of the object at keyPath in the file at
// path, as want decides from the member's current value. The file is read
// immediately before writing, written atomically (a new file gets perm, an
// existing one keeps its mode, a symlink stays a symlink), parsed again and
// compared with what was intended; when the result is not exactly the
// intended change, the previous content is put back and an error returned.
func Update(path string, perm fs.FileMode, keyPath []string, name string, want Want) error {
	for range attempts {
		old, existed, err := read(path)
		if err != nil {
			return err
		}
		src := old
		if !existed {
			src = []byte("{}\n")
		}
		next, value, err := change(path, src, keyPath, name, want)
		if err != nil {
			return err
		}
		if bytes.Equal(next, src) && (existed || value == nil) {
			return nil // nothing to do
		}
		now, stillExists, err := read(path)
		if err != nil {
			return err
		}
		if stillExists != existed || !bytes.Equal(now, old) {
			continue // changed under us: start again from the new content
		}
		return write(path, perm, old, existed, src, mangle(next), keyPath, name, value)
	}
	return fmt.Errorf("%s: the file kept changing while chronicle tried to write it; try again", path)
}

// change applies want to src and returns the new content and the intended
// value of the member (nil when removed).
func change(path string, src []byte, keyPath []string, name string, want Want) (next, value []byte, err error) {
	d, err := Parse(path, src)
	if err != nil {
		return nil, nil, err
	}
	var current []byte
	if members, err := d.Members(keyPath); err != nil {
		return nil, nil, err
	} else {
		for _, m := range members {
			if m.Name == name {
				current = m.Value
			}
		}
	}
	value, err = want(current)
	if err != nil {
		return nil, nil, err
	}
	if value == nil {
		next, err = remove(path, src, keyPath, name)
	} else {
		next, err = set(path, src, keyPath, name, value)
	}
	return next, value, err
}

// write puts next in place, checks it and restores old when the check fails.
func write(path string, perm fs.FileMode, old []byte, existed bool, src, next []byte, keyPath []string, name string, value []byte) error {
	if !existed {
		if err := os.MkdirAll(filepath.Dir(path), dirPerm(perm)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := safefile.WriteFile(path, next, perm); err != nil {
		return err
	}
	got, _, err := read(path)
	if err == nil {
		err = verify(path, src, got, keyPath, name, value)
	}
	if err == nil {
		return nil
	}
	if !bytes.Equal(got, next) {
		return fmt.Errorf("%s: the file changed right after chronicle wrote it; check it by hand: %w", path, err)
	}
	if !existed {
		if rerr := os.Remove(path); rerr != nil {
			return fmt.Errorf("%s: %w; removing the new file failed too: %v", path, err, rerr)
		}
		return fmt.Errorf("%s: %w; the new file was removed", path, err)
	}
	if rerr := safefile.WriteFile(path, old, perm); rerr != nil {
		return fmt.Errorf("%s: %w; restoring the previous content failed too: %v", path, err, rerr)
	}
	return fmt.Errorf("%s: %w; the previous content was restored", path, err)
}

// verify checks that got differs from src by exactly the intended change.
func verify(path string, src, got []byte, keyPath []string, name string, value []byte) error {
	before, err := Parse(path, src)
	if err != nil {
		return err
	}
	after, err := Parse(path, got)
	if err != nil {
		return fmt.Errorf("the written file does not parse (%v)", err)
	}
	entry, ok := lookup(after.tree, append(keyPath[:len(keyPath):len(keyPath)], name))
	switch {
	case value == nil && ok:
		return errors.New("the written file still holds the entry")
	case value != nil && !ok:
		return errors.New("the written file lacks the entry")
	case value != nil:
		b, _ := Marshal(entry)
		if !Equal(b, value) {
			return errors.New("the written entry differs from the intended one")
		}
	}
	if !reflect.DeepEqual(without(before.tree, keyPath, name), without(after.tree, keyPath, name)) {
		return errors.New("the write changed more than the entry")
	}
	return nil
}

// read returns the file's content and whether it exists.
func read(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return b, true, nil
}

// dirPerm is the mode of a folder created for a new file: private for a
// private file.
func dirPerm(perm fs.FileMode) fs.FileMode {
	if perm&0o077 == 0 {
		return 0o700
	}
	return 0o755
}
