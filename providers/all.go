package providers

import (
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/agents"
	"github.com/chronicle-dev/chronicle/providers/amp"
	"github.com/chronicle-dev/chronicle/providers/antigravity"
	"github.com/chronicle-dev/chronicle/providers/claude"
	"github.com/chronicle-dev/chronicle/providers/claudedesktop"
	"github.com/chronicle-dev/chronicle/providers/cline"
	"github.com/chronicle-dev/chronicle/providers/codex"
	"github.com/chronicle-dev/chronicle/providers/copilot"
	"github.com/chronicle-dev/chronicle/providers/cursor"
	"github.com/chronicle-dev/chronicle/providers/custom"
	"github.com/chronicle-dev/chronicle/providers/devin"
	"github.com/chronicle-dev/chronicle/providers/gemini"
	"github.com/chronicle-dev/chronicle/providers/goose"
	"github.com/chronicle-dev/chronicle/providers/junie"
	"github.com/chronicle-dev/chronicle/providers/kiro"
	"github.com/chronicle-dev/chronicle/providers/opencode"
	"github.com/chronicle-dev/chronicle/providers/vscode"
	"github.com/chronicle-dev/chronicle/providers/windsurf"
	"github.com/chronicle-dev/chronicle/providers/zed"
)

// All returns a provider for every built-in tool, in the order of Names,
// followed by one for each tool block of the configuration.
func All(tools []*config.Tool) []provider.Provider {
	all := []provider.Provider{
		claude.New(),
		claudedesktop.New(),
		cursor.New(),
		gemini.New(),
		codex.New(),
		vscode.New(),
		windsurf.New(),
		zed.New(),
		opencode.New(),
		antigravity.New(),
		devin.New(),
		copilot.New(),
		kiro.New(),
		cline.New(),
		goose.New(),
		amp.New(),
		junie.New(),
		agents.New(),
	}
	for _, t := range tools {
		all = append(all, custom.New(t))
	}
	return all
}
