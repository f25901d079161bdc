package secret

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/joho/godotenv"
)

// ReadEnvFile reads a dotenv file (~/.chronicle/env). A missing file holds
// no values; a file that does not parse is an error naming it.
func ReadEnvFile(path string) (map[string]string, error) {
	vals, err := godotenv.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return vals, nil
}
