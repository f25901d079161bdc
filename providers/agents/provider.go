package agents

import (
	"errors"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/internal/instr"
)

// Name is the convention's name as written in a link.
const Name = "agents"

// ErrNoMCP is returned by every MCP operation: agents is a skills folder
// convention and has no MCP configuration to read or write.
var ErrNoMCP = errors.New("agents has no MCP configuration, only the skills folder ~/.agents/skills; link services to a tool instead")

// A Provider is the agents convention's provider.Provider.
type Provider struct{}

// New returns the agents provider.
func New() Provider { return Provider{} }

var _ provider.Provider = Provider{}

// Name returns "agents".
func (Provider) Name() string { return Name }

// Locations returns none: agents has no MCP configuration.
func (Provider) Locations(provider.Env) []provider.Location { return nil }

// SkillDirs lists ~/.agents/skills and each project's .agents/skills, which
// Codex reads too.
func (Provider) SkillDirs(env provider.Env) []provider.SkillDir {
	shared := []string{"codex"}
	dirs := []provider.SkillDir{{
		Tool: Name, Scope: provider.ScopeUser,
		Dir: filepath.Join(env.Home, ".agents", "skills"), SharedWith: shared,
	}}
	for _, p := range env.Projects {
		dirs = append(dirs, provider.SkillDir{
			Tool: Name, Scope: provider.ScopeProject, Project: p,
			Dir: filepath.Join(p, ".agents", "skills"), SharedWith: shared,
		})
	}
	return dirs
}

// Instructions lists each project's AGENTS.md, the file of the AGENTS.md
// convention (https://agents.md/); the convention has no user-level file,
// commands or agents.
func (Provider) Instructions(env provider.Env) []provider.Place { return placeTable.Places(env, "") }

var placeTable = instr.Table{
	Tool: Name,
	Project: []instr.Row{
		{Kind: instruction.Rule, Files: []string{"AGENTS.md"}, Format: instr.Root{}, Source: "https://agents.md/"},
	},
}

// Parse returns ErrNoMCP.
func (Provider) Parse(string, []byte) (provider.Document, error) { return nil, ErrNoMCP }

// Render returns ErrNoMCP.
func (Provider) Render(provider.Entry) ([]byte, error) { return nil, ErrNoMCP }

// OwnedKeys returns nil: agents keeps no MCP entries.
func (Provider) OwnedKeys() map[string]string { return nil }
