package claudedesktop

import (
	"path/filepath"
	"runtime"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "claude-desktop"

// New returns the Claude Desktop provider.
func New() provider.Provider { return newFor(runtime.GOOS) }

func newFor(goos string) provider.Provider {
	return &jsontool.Tool{
		Syntax: refsyntax.ClaudeDesktop,
		Locate: func(env provider.Env) []provider.Location {
			dir := filepath.Join(jsontool.ConfigHome(env), "Claude")
			if goos == "darwin" {
				dir = filepath.Join(env.Home, "Library", "Application Support", "Claude")
			}
			return []provider.Location{jsontool.UserFile(tool, filepath.Join(dir, "claude_desktop_config.json"), "mcpServers")}
		},
		Decode:   jsontool.DecodeTyped,
		Encode:   encode,
		Owned:    []string{"command", "args", "env"},
		Reads:    []string{"type", "url", "headers"},
		Defaults: map[string]string{"args": `[]`, "env": `{}`},
	}
}

func encode(e provider.Entry, _ *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	c.Refuse(e.Transport != service.Stdio, "a "+e.Transport+" server (stdio only)")
	return jsontool.EncodeTyped(e, c, false, "url")
}
