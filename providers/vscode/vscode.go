package vscode

import (
	"path/filepath"
	"runtime"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

const tool = "vscode"

// New returns the VS Code provider.
func New() provider.Provider { return newFor(runtime.GOOS) }

func newFor(goos string) provider.Provider {
	userDir := func(env provider.Env) string {
		if goos == "darwin" {
			return filepath.Join(env.Home, "Library", "Application Support", "Code", "User")
		}
		return filepath.Join(jsontool.ConfigHome(env), "Code", "User")
	}
	return &jsontool.Tool{
		Syntax: refsyntax.VSCode,
		Locate: func(env provider.Env) []provider.Location {
			user := jsontool.UserFile(tool, filepath.Join(userDir(env), "mcp.json"), "servers")
			return append([]provider.Location{user}, jsontool.ProjectFiles(env, tool, filepath.Join(".vscode", "mcp.json"), "servers")...)
		},
		Decode:   jsontool.DecodeTyped,
		Encode:   encode,
		Owned:    []string{"type", "command", "args", "env", "url", "headers"},
		Defaults: map[string]string{"args": `[]`, "env": `{}`, "headers": `{}`},
		Places:   func(env provider.Env) []provider.Place { return places(env, userDir(env)) },
	}
}

func encode(e provider.Entry, _ *jsontool.Fields, c *jsontool.Encoder) jsontool.Object {
	return jsontool.EncodeTyped(e, c, true, "url")
}
