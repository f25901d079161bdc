package claude

import (
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

// New returns the Claude Code provider.
//
// Entries of a project's .mcp.json consult the ~/.claude.json of the Env
// last given to Locations for the project's approvals.
func New() provider.Provider {
	c := &claude{}
	return &jsontool.Tool{
		Syntax:    refsyntax.Claude,
		Locate:    c.locations,
		Skills:    skills,
		Decode:    jsontool.DecodeTyped,
		Encode:    encode,
		Owned:     []string{"type", "command", "args", "env", "url", "headers"},
		Defaults:  map[string]string{"type": `"stdio"`, "args": `[]`, "env": `{}`, "headers": `{}`},
		Enable:    c.enable,
		ParseJSON: c.parse,
		Places:    places,
	}
}

// claude remembers where the user's ~/.claude.json is.
type claude struct {
	userFile jsontool.Memo
}

// parse parses one of Claude's files, ~/.claude.json through lastUser.
func (c *claude) parse(path string, src []byte) (*jsonfile.Document, error) {
	if path == c.userFile.Get() {
		return lastUser.parse(path, src)
	}
	return jsonfile.Parse(path, src)
}

func encode(e provider.Entry, _ *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	return jsontool.EncodeTyped(e, c, true, "url")
}
