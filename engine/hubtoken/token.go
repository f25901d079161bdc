package hubtoken

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// FileName is the token's file under chronicle's folder (~/.chronicle).
const FileName = "hub.token"

// Path returns the token file of chronicle's folder chronicleHome.
func Path(chronicleHome string) string { return filepath.Join(chronicleHome, FileName) }

// minLength is the shortest content taken for a token.
const minLength = 16

// Load returns the token kept at path, making one (0600, in a 0700 folder)
// when there is none. The new token is written whole to a temporary file
// beside path and renamed to path only while nothing is there: the file
// never exists empty or half written, and of two processes making it at
// once, the one that loses the rename reads the winner's token.
func Load(sys fsys.System, path string) (string, error) {
	if tok, err := Read(sys, path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return tok, err
	}
	dir := filepath.Dir(path)
	if err := sys.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	tok := New()
	tmp := filepath.Join(dir, "."+filepath.Base(path)+"."+New()[:12]+".tmp")
	if err := sys.WriteNew(tmp, []byte(tok+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	err := sys.RenameNew(tmp, path)
	if err != nil {
		_ = sys.Remove(tmp)
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		return Read(sys, path) // another process made it first
	case err != nil:
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return tok, nil
}

// Read returns the token kept at path. A file that others can read is
// refused: the token opens the hub.
func Read(r fsys.Reader, path string) (string, error) {
	info, err := r.Stat(path)
	if err != nil {
		return "", err
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s is readable by other users (mode %v): run chmod 600 %s", path, info.Mode().Perm(), path)
	}
	b, err := r.ReadFile(path)
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(b))
	if len(tok) < minLength {
		return "", fmt.Errorf("%s holds no token (at least %d characters; it is never written partly, so something else wrote it): delete it, then run chronicle apply or start chronicle serve to make a new one", path, minLength)
	}
	return tok, nil
}

// New returns a new random token (48 hex digits).
func New() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
