package secret

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"

	"github.com/joho/godotenv"
)

// ReadEnvFile reads a dotenv file (~/.chronicle/env). A missing file holds
// no values; a file that does not parse is an error naming it. The file
// holds secrets, so on Unix it must be readable by its owner only (mode
// 0600 or stricter): otherwise it is an error naming the file, its mode and
// the fix, and no value of it is used.
func ReadEnvFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := checkPrivate(path, info.Mode()); err != nil {
		return nil, err
	}
	vals, err := godotenv.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return vals, nil
}

// checkPrivate refuses a secrets file that others can read or change.
// Windows has no such mode bits: its ACLs are the user profile's.
func checkPrivate(path string, mode fs.FileMode) error {
	if runtime.GOOS == "windows" || mode.Perm()&0o077 == 0 {
		return nil
	}
	return fmt.Errorf("%s holds secrets but has mode %04o, which lets other users read it: run chmod 600 %s", path, mode.Perm(), path)
}
