package tomlfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/safefile"
)

// Modes of what PutFile creates. The file may hold a server's literal
// environment, so only its owner may read it.
const (
	FileMode fs.FileMode = 0o600
	DirMode  fs.FileMode = 0o700
)

// A Build returns the table to write for an entry, given the entry as the
// file holds it right now (nil when it has none), so that a caller can carry
// over fields it does not manage.
type Build func(current map[string]any) (Table, error)

// writeFile is the one write PutFile and RemoveFile make; tests replace it
// to make a write go wrong and watch the rollback.
var writeFile = safefile.WriteFile

// attempts bounds how often an edit starts over when another program
// rewrites the file between the read and the write.
const attempts = 3

// PutFile adds or replaces the entry keyPath.name in the file at path,
// creating the file (mode 0600, folders 0700) when it is missing. The file is
// read immediately before writing, written atomically, then read back and
// decoded: unless the result holds exactly the intended change, the
// previous bytes are restored and an error returned.
func PutFile(path string, keyPath []string, name string, build Build) error {
	return edit(path, keyPath, name, true, func(doc *Document) ([]byte, map[string]any, error) {
		current, err := lookup(doc.Tree, append(slices.Clone(keyPath), name))
		if err != nil {
			current = nil // not a table now: replaced whole
		}
		t, err := build(current)
		if err != nil {
			return nil, nil, err
		}
		return setEntry(doc.Data, keyPath, name, t)
	})
}

// RemoveFile deletes the entry keyPath.name from the file at path with the
// same guarantees as PutFile. A missing file or entry is not an error.
func RemoveFile(path string, keyPath []string, name string) error {
	return edit(path, keyPath, name, false, func(doc *Document) ([]byte, map[string]any, error) {
		out, err := Delete(doc.Data, keyPath, name)
		return out, nil, err
	})
}

type change func(doc *Document) (after []byte, want map[string]any, err error)

func edit(path string, keyPath []string, name string, create bool, apply change) error {
	key := append(slices.Clone(keyPath), name)
	for range attempts {
		before, existed, err := readRaw(path)
		if err != nil || !existed && !create {
			return err
		}
		doc, err := Parse(path, before)
		if err != nil {
			return err
		}
		after, want, err := apply(doc)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if existed && bytes.Equal(before, after) {
			return nil
		}
		now, stillExists, err := readRaw(path)
		if err != nil {
			return err
		}
		if stillExists != existed || !bytes.Equal(now, before) {
			continue // rewritten meanwhile: start over from its new content
		}
		return write(path, key, before, existed, after, want)
	}
	return fmt.Errorf("%s: the file kept changing while chronicle edited it; try again", path)
}

// write replaces the file with after, reads it back and restores before
// unless it decodes as the intended change.
func write(path string, key []string, before []byte, existed bool, after []byte, want map[string]any) error {
	if !existed {
		if err := os.MkdirAll(filepath.Dir(path), DirMode); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	err := writeFile(path, after, FileMode)
	if err == nil {
		var got []byte
		if got, err = os.ReadFile(path); err == nil {
			err = verify(before, got, key, want)
		}
	}
	if err == nil {
		return nil
	}
	if rerr := restore(path, before, existed); rerr != nil {
		return fmt.Errorf("%s: %w; restoring the previous content failed too: %w", path, err, rerr)
	}
	return fmt.Errorf("%s: %w; the previous content was restored", path, err)
}

func restore(path string, before []byte, existed bool) error {
	if !existed {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return safefile.WriteFile(path, before, FileMode)
}

// readRaw reads the file at path; a missing file is not an error.
func readRaw(path string) (data []byte, exists bool, err error) {
	data, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return data, true, nil
}
