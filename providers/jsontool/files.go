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
	v, err := files.Parsed(path, parseJSON)
	if err != nil || v == nil {
		return nil, err
	}
	doc, ok := v.(*jsonfile.Document)
	if !ok {
		return nil, fmt.Errorf("%s: read as %T rather than as JSON", path, v)
	}
	return doc, nil
}

func parseJSON(path string, src []byte) (any, error) { return jsonfile.Parse(path, src) }
