package yamlfile

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// The parser reports positions only in its messages: "yaml: line 3: …",
// and "line 3: …" for each item of "yaml: unmarshal errors:".
var linePosition = regexp.MustCompile(`(?:^|\n)\s*(?:yaml: )?line (\d+): (.*)`)

// parseError turns an error of the YAML parser into a *provider.ParseError
// with the line it names: for a syntax error, the line of the block the
// problem is in, as the parser reports it (it gives no column, and no line
// for a problem in the file's first line).
func parseError(path string, err error) error {
	m := linePosition.FindStringSubmatch(err.Error())
	if m == nil {
		return &provider.ParseError{File: path, Err: errors.New(strings.TrimPrefix(err.Error(), "yaml: "))}
	}
	line, _ := strconv.Atoi(m[1])
	return &provider.ParseError{File: path, Line: line, Err: errors.New(m[2])}
}
