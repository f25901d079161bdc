package jsonfile

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// hujson reports positions only in its message: "hujson: line 3, column 7: …".
var hujsonPosition = regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)

// parseError turns a hujson error into a *provider.ParseError with the line
// and column the parser gave.
func parseError(path string, src []byte, err error) error {
	m := hujsonPosition.FindStringSubmatch(err.Error())
	if m == nil {
		return &provider.ParseError{File: path, Err: err}
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	return &provider.ParseError{File: path, Line: line, Column: col, Err: errors.New(m[3])}
}

// positionError is a *provider.ParseError at a byte offset of src.
func positionError(path string, src []byte, offset int, err error) error {
	offset = min(max(offset, 0), len(src))
	line := 1 + bytes.Count(src[:offset], []byte("\n"))
	col := 1 + offset - (bytes.LastIndexByte(src[:offset], '\n') + 1)
	return &provider.ParseError{File: path, Line: line, Column: col, Err: err}
}
