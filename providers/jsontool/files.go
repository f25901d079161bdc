package jsontool

import (
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// ParsedJSON returns the JSON or JSONC file at path as files has it parsed,
// or nil when it does not exist: a file a tool keeps settings in besides its
// servers (Gemini's user settings and enablement file, Claude's project
// settings).
func ParsedJSON(files provider.Files, path string) (*jsonfile.Document, error) {
	return Parsed(files, path, jsonfile.Parse)
}

// Parsed is ParsedJSON with the file parsed by parse.
func Parsed(files provider.Files, path string, parse func(path string, src []byte) (*jsonfile.Document, error)) (*jsonfile.Document, error) {
	v, err := files.Parsed(path, func(path string, src []byte) (any, error) { return parse(path, src) })
	if err != nil || v == nil {
		return nil, err
	}
	doc, ok := v.(*jsonfile.Document)
	if !ok {
		return nil, fmt.Errorf("%s: read as %T rather than as JSON", path, v)
	}
	return doc, nil
}
