package config

import (
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/exposure"
	"github.com/chronicle-dev/chronicle/engine/machine"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// A Config is a decoded configuration directory.
type Config struct {
	// Dir is the absolute configuration directory.
	Dir string
	// Files lists the absolute paths of the *.hcl files read, sorted.
	Files []string

	// Projects are the absolute project folders from chronicle { projects }.
	Projects []string

	Variables []*Variable
	Services  []*service.Service
	// ServiceRanges holds where each service block is, by service name.
	ServiceRanges map[string]hcl.Range
	// Targets holds each service's target blocks (per-tool values of its
	// entries), by service name.
	Targets  map[string][]*Target
	Policies []*Policy
	Skills   []*Skill
	Links    []*Link
	Profiles []*Profile
	Tools    []*Tool
	// Rules, Commands and Agents are the instruction blocks
	// (instruction_block.go).
	Rules    []*Instruction
	Commands []*Instruction
	Agents   []*Instruction
	Hub      *Hub      // nil when there is no hub block
	Chronova *Chronova // nil when there is no chronova block

	// Sensitive holds the values of variables declared sensitive, so that
	// output can mask them wherever they end up.
	Sensitive []string

	// Machine are the facts the configuration was evaluated with
	// (machine.*), tool blocks' tools included in Machine.Tools.
	Machine machine.Facts

	// Absent are the blocks whose when is false on this machine, sorted
	// by address: declared and checked, but not in the lists above.
	Absent []Absent
	// Dropped are the references to absent blocks that the blocks above
	// made, left out of them on this machine.
	Dropped []Dropped
	// Instances maps the address of each for_each instance
	// (service.github-acme) to the block and key it comes from
	// (service.github["acme"]).
	Instances map[string]string
}

// A Variable is an input variable and its final value's origin.
type Variable struct {
	Name        string
	Description string
	Sensitive   bool
	// Source says where the value came from: "default", "machine file
	// PATH:LINE", "env CHRONICLE_VAR_NAME", "--var-file PATH:LINE" or "--var".
	Source string
	// Shown is the value as HCL, secret references as secret("…"), or
	// "(sensitive)" for a variable declared sensitive.
	Shown     string
	DeclRange hcl.Range
}

// A Policy restricts what the hub offers of one service.
type Policy struct {
	Service       string
	Enabled       *bool // nil when not set
	DisabledTools []string
	EnabledTools  []string

	DeclRange hcl.Range
}

// A Skill is a skill folder to keep in the central store.
type Skill struct {
	Name string
	// Source is the absolute local folder; empty for a git skill.
	Source string

	Git     string
	Ref     string // branch, tag or full commit SHA; empty means the remote's HEAD
	Path    string // folder inside the repository
	Include []string
	Auth    secret.Value
	MaxSize int64 // bytes
	// Origin says where adopt found the skill, e.g. "claude:user"; informational.
	Origin string

	DeclRange hcl.Range
}

// IsGit reports whether the skill comes from a git repository.
func (s *Skill) IsGit() bool { return s.Git != "" }

// Link modes.
const (
	ModeSymlink = "symlink"
	ModeCopy    = "copy"
)

// A Link fans skills, services or the hub out to tools.
type Link struct {
	Name     string
	Tools    []string
	Skills   []string // names, or "*"
	Services []string
	// Rules, Commands and Agents are the instruction blocks the link
	// gives its tools: names, or "*".
	Rules    []string
	Commands []string
	Agents   []string
	// Hub (hub = true) gives each tool the hub's aggregated entry.
	Hub bool
	// PerService (hub = "per-service") sends the link's services through
	// the hub one entry each, named as the service, instead of writing
	// them into the tools directly: a client's own permission rules
	// (mcp__github__create_issue) keep working (decision 0175).
	PerService bool
	// Profile is the profile the hub entry serves ("" for the whole hub).
	Profile string
	// Transport is how the tool reaches the hub: TransportStdio (chronicle
	// serve --stdio, the default) or TransportHTTP (the running hub's URL).
	Transport string
	Mode      string // symlink or copy
	// Project is the absolute project folder whose tool files and folders to
	// use instead of the user-level ones; empty for user level.
	Project string
	// Local (scope = "local", with Project) writes the tool's per-project
	// entries kept outside the project — Claude's projects[…].mcpServers
	// in ~/.claude.json — instead of the project's files.
	Local bool
	// ClaudeImport (claude_import = true) keeps the CLAUDE.md importing
	// AGENTS.md ("@AGENTS.md") in the link's project for Claude Code builds
	// that do not read AGENTS.md themselves: before 2.1.277, and on
	// Bedrock, Vertex and Foundry (decision 0150). Without it, a project
	// with no CLAUDE.md gets its rules for Claude Code in AGENTS.md only.
	ClaudeImport bool

	DeclRange hcl.Range
}

// All is the name that stands, in a link's tools, skills or services, for
// every one: every tool present on this machine, every declared skill or
// service.
const All = "*"

// AllSkills reports whether the link takes every declared skill.
func (l *Link) AllSkills() bool { return slices.Contains(l.Skills, All) }

// AllTools reports whether the link writes to every tool present on this
// machine (tools = ["*"]).
func (l *Link) AllTools() bool { return slices.Contains(l.Tools, All) }

// AllServices reports whether the link writes every declared service
// (services = ["*"]).
func (l *Link) AllServices() bool { return slices.Contains(l.Services, All) }

// Names reports whether the link names tool itself in its tools, rather
// than through "*": a tool named is written whether present or not.
func (l *Link) Names(tool string) bool { return tool != All && slices.Contains(l.Tools, tool) }

// DefaultListen is the hub's default address.
const DefaultListen = "127.0.0.1:7311"

// A Hub holds the settings of chronicle serve.
type Hub struct {
	Listen    string
	Token     secret.Value
	Hostnames []string
	// Tools is how the hub exposes tools (an exposure mode); "" when not set
	// (the hub then lists every tool).
	Tools string
	// SearchThreshold is the token cost above which "auto" switches to
	// search; 0 when not set (the default applies).
	SearchThreshold int
	// Always are globs over <service>__<tool> of tools listed next to the
	// meta-tools in search mode.
	Always []string
	// MaxSessions caps the hub's client sessions; 0 when not set (the
	// hub's default).
	MaxSessions int
	// LocalClients is who may use the MCP endpoints on loopback without
	// hub { token }: LocalClientsToken (the default, also when "") or
	// LocalClientsOpen.
	LocalClients string

	DeclRange hcl.Range
}

// The values of hub.local_clients (docs/decisions/0145).
const (
	// LocalClientsToken: a loopback client of /mcp, /sse and /message
	// sends the hub's token (~/.chronicle/hub.token) like the API's.
	LocalClientsToken = "token"
	// LocalClientsOpen: any local process may use the MCP endpoints
	// without a token (a single-user machine that wants it).
	LocalClientsOpen = "open"
)

// The ways the hub lists tools (hub.tools, profile.exposure).
const (
	ExposeAll    = exposure.All    // every tool, in full
	ExposeSearch = exposure.Search // three meta-tools (and the always tools)
	ExposeAuto   = exposure.Auto   // search when the full list costs more than search_threshold
)

// DefaultMaxSessions is hub.max_sessions when not set: how many client
// sessions the hub holds at once.
const DefaultMaxSessions = 512

// DefaultSearchThreshold is hub.search_threshold when not set, in tokens.
const DefaultSearchThreshold = exposure.DefaultThreshold

// Link transports to the hub.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
)

// A Profile is a toolset served at its own hub endpoint
// (/mcp/profile/<name>, serve --stdio --profile <name>).
type Profile struct {
	Name string
	// Services limits the profile to these services; empty means all.
	Services []string
	// Tools are globs over <service>__<tool>; empty means every tool of the
	// services.
	Tools []string
	// Exposure is the profile's exposure mode; "" means the hub's.
	Exposure string

	DeclRange hcl.Range
}

// DefaultChronovaURL is the Chronova API used when none is configured.
const DefaultChronovaURL = "https://chronova.dev/api/v1"

// A Chronova block enables the built-in chronova service.
type Chronova struct {
	APIKey secret.Value // zero when not set
	APIURL string       // empty when not set

	DeclRange hcl.Range
}

// Formats of a tool's config file.
const (
	FormatJSON  = "json"
	FormatJSONC = "jsonc"
	FormatTOML  = "toml"
)

// A Tool declares an agent chronicle does not know built in.
type Tool struct {
	Name             string
	Format           string
	Config           string // absolute user config file
	ServersKey       string // dotted path to the server map
	SkillsDir        string // absolute user skills folder
	ProjectConfig    string // relative to a project
	ProjectSkillsDir string // relative to a project

	DeclRange hcl.Range
}

// Service returns the declared service with the given name, or nil.
func (c *Config) Service(name string) *service.Service {
	for _, s := range c.Services {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Skill returns the declared skill with the given name, or nil.
func (c *Config) Skill(name string) *Skill {
	for _, s := range c.Skills {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// SkillNames returns every declared skill name: each skill block's name, and
// the names a git skill lists in include.
func (c *Config) SkillNames() []string {
	var names []string
	for _, s := range c.Skills {
		if len(s.Include) > 0 {
			names = append(names, s.Include...)
			continue
		}
		names = append(names, s.Name)
	}
	return names
}

// Profile returns the declared profile with the given name, or nil.
func (c *Config) Profile(name string) *Profile {
	for _, p := range c.Profiles {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// ServiceNames returns every declared service name, including the built-in
// chronova service when a chronova block exists.
func (c *Config) ServiceNames() []string {
	var out []string
	for _, s := range c.Services {
		out = append(out, s.Name)
	}
	if c.Chronova != nil {
		out = append(out, names.Chronova)
	}
	return out
}

// LinkTools returns the tools link l writes on this machine: those it
// names, in its order, then with "*" every other tool present here
// (Machine.Tools), sorted.
func (c *Config) LinkTools(l *Link) []string {
	var out []string
	for _, t := range l.Tools {
		if t != All {
			out = append(out, t)
		}
	}
	if !l.AllTools() {
		return out
	}
	present := append([]string(nil), c.Machine.Tools...)
	sort.Strings(present)
	for _, t := range present {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// LinkServices returns the services link l writes into its tools: those
// it names, in its order, then with "*" every other service block's
// service, sorted. The built-in chronova service runs inside chronicle and
// is offered through the hub only, so "*" leaves it out.
func (c *Config) LinkServices(l *Link) []string {
	var out []string
	for _, s := range l.Services {
		if s != All {
			out = append(out, s)
		}
	}
	if !l.AllServices() {
		return out
	}
	var declared []string
	for _, s := range c.Services {
		declared = append(declared, s.Name)
	}
	sort.Strings(declared)
	for _, s := range declared {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
