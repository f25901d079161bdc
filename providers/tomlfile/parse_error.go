package tomlfile

import (
	"errors"
	"fmt"

	"github.com/BurntSushi/toml"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// syntaxError keeps BurntSushi's error reachable through errors.As while
// printing only its message: provider.ParseError prints the position.
type syntaxError struct{ toml.ParseError }

func (e syntaxError) Error() string { return e.Message }
func (e syntaxError) Unwrap() error { return e.ParseError }

// parseError turns an error from BurntSushi into a *provider.ParseError.
func parseError(path string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &provider.ParseError{File: path, Line: pe.Position.Line, Column: pe.Position.Col, Err: syntaxError{pe}}
	}
	return &provider.ParseError{File: path, Err: err}
}

// layoutError reports a document that BurntSushi accepts but the
// position-reporting parser does not, so no span can be located in it.
func layoutError(data []byte, err error) error {
	var pe *unstable.ParserError
	if !errors.As(err, &pe) {
		return fmt.Errorf("locating entries: %w", err)
	}
	off := cap(data) - cap(pe.Highlight)
	if off < 0 || off > len(data) {
		return fmt.Errorf("locating entries: %w", err)
	}
	line, col := position(data, off)
	return fmt.Errorf("locating entries: line %d, column %d: %s", line, col, pe.Message)
}

// position returns the 1-based line and column of byte offset off.
func position(data []byte, off int) (line, col int) {
	line = 1
	start := 0
	for i := 0; i < off && i < len(data); i++ {
		if data[i] == '\n' {
			line++
			start = i + 1
		}
	}
	return line, off - start + 1
}
