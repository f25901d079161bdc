package yamlfile

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/provider"
)

// The parser reports positions only in its messages: "yaml: line 3: …",
// and "line 3: …" for each item of "yaml: unmarshal errors:".
var linePosition = regexp.MustCompile(`(?:^|\n)\s*(?:yaml: )?line (\d+): (.*)`)

// blockProblems are the parser's (not the scanner's) problems: for these it
// names the line where the block it was reading starts, counted from 0.
var blockProblems = []string{"did not find expected key", "did not find expected node content",
	"did not find expected '-' indicator", "did not find expected ',' or ']'", "did not find expected ',' or '}'",
	"found undefined tag handle"}

// parseError turns an error of the YAML parser into a *provider.ParseError
// with the line it names (it gives no column). For a problem the parser
// finds while reading a block, that is the line where the block starts, and
// the message says so.
func parseError(path string, err error) error {
	msg := err.Error()
	m := linePosition.FindStringSubmatch(msg)
	if m == nil {
		line := 0
		if rest, ok := strings.CutPrefix(msg, "yaml: "); ok {
			msg = rest
			if !strings.Contains(rest, "anchor") && !strings.Contains(rest, "alias") {
				// A syntax error with no line is on the first one: the
				// parser leaves out line 0. (Anchor errors give none.)
				line = 1
			}
			if slices.Contains(blockProblems, rest) {
				msg += " in the block that starts here"
			}
		}
		return &provider.ParseError{File: path, Line: line, Err: errors.New(msg)}
	}
	line, _ := strconv.Atoi(m[1])
	problem := m[2]
	if slices.Contains(blockProblems, problem) && !strings.Contains(msg, "unmarshal errors") {
		line++
		problem += " in the block that starts here"
	}
	return &provider.ParseError{File: path, Line: line, Err: errors.New(problem)}
}
