package fsys

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// ReadJSON decodes the JSON file at path into v, read through r. found is
// false, and v untouched, when there is no file; a file that does not
// decode is an error naming it.
func ReadJSON(r Reader, path string, v any) (found bool, err error) {
	b, err := r.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return true, fmt.Errorf("%s: %w", path, err)
	}
	return true, nil
}

// WriteJSON writes v to path as indented JSON, atomically, with mode 0600
// in a folder made 0700 when missing: chronicle's own small records
// (~/.chronicle/sync-status.json, autostart.json) name repositories and
// addresses, nobody else's to read.
func WriteJSON(sys System, path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := sys.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := sys.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
