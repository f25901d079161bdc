package hub

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/safefile"
)

// TokenFileName is the file under ~/.chronicle that holds the hub's own
// token when hub { token } is not set.
const TokenFileName = "hub.token"

// LoadToken returns the token kept at path, making one (0600, in a 0700
// folder) when there is none. Two hubs starting at once agree: the file is
// created exclusively, and the one that loses reads the winner's.
func LoadToken(path string) (string, error) {
	if tok, err := ReadToken(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return tok, err
	}
	if err := safefile.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	f, err := safefile.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return ReadToken(path)
	}
	if err != nil {
		return "", err
	}
	tok := newToken()
	_, err = f.WriteString(tok + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return tok, nil
}

// ReadToken returns the token kept at path. A file that others can read
// is refused: the token opens the management API.
func ReadToken(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if runtime.GOOS != "windows" && info.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s is readable by other users (mode %v): run chmod 600 %s", path, info.Mode().Perm(), path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	tok := strings.TrimSpace(string(b))
	if len(tok) < 16 {
		return "", fmt.Errorf("%s holds no token (at least 16 characters): delete it and start chronicle serve again to make one", path)
	}
	return tok, nil
}

func newToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
