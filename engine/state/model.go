package state

import (
	"time"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// A Policy restricts what the hub offers of one service.
type Policy struct {
	Enabled       *bool // nil when not set
	DisabledTools []string
	EnabledTools  []string
}

// A Hub holds the settings of the aggregating MCP hub.
type Hub struct {
	Listen    string
	Token     secret.Value
	Hostnames []string
	// Tools is the exposure mode (all, search, auto); "" means all.
	Tools string
	// SearchThreshold is auto's threshold in tokens; 0 means the default.
	SearchThreshold int
	// Always are globs of tools listed next to the meta-tools.
	Always []string
	// MaxSessions caps the client sessions the hub holds at once; 0 means
	// the hub's default.
	MaxSessions int
}

// A Profile is a toolset the hub serves at its own endpoint.
type Profile struct {
	Services []string // empty: every service
	Tools    []string // globs over <service>__<tool>; empty: every tool
	Exposure string   // "" means the hub's mode
}

// A Chronova holds the settings of the Chronova bridge.
type Chronova struct {
	APIKey secret.Value
	APIURL string
}

// A Skill is a skill chronicle imported into the central store.
type Skill struct {
	Source     string // the local folder it was copied from; empty for a git skill
	Hash       string // skills.Hash of the central copy as last written
	OriginRepo string // the git remote, for a git skill
	OriginSHA  string // the commit it was imported at
	OriginRef  string // the branch, tag or SHA the configuration asked for
	Path       string // the folder inside OriginRepo; empty for a local skill
}

// Link modes.
const (
	ModeSymlink = "symlink"
	ModeCopy    = "copy"
)

// A Link is a skill chronicle placed in a tool's skills folder: a symlink
// into the central store, or a tracked copy.
type Link struct {
	Address string // e.g. link.everywhere["claude"].skill.pdf
	Tool    string
	Path    string // where the link or copy lives
	Target  string // the central store folder it points at or was copied from
	Mode    string // ModeSymlink or ModeCopy
	Hash    string // for a copy, skills.Hash of what was written
}

// An Entry is a config entry chronicle wrote into a tool's file.
type Entry struct {
	Address string // e.g. link.cursor-direct["cursor"].service.linear
	Tool    string
	Scope   string // user, local or project
	Project string // the project folder for a project-scoped entry
	File    string
	KeyPath []string // the keys leading to the entry inside File
	Name    string   // the entry's name in the tool
	// Hash is the hash of what chronicle owns of the entry as written,
	// read back (own.EntryProjection): its modelled keys and the extra
	// keys it wrote, not the keys the tool added.
	Hash string
	// WholeHash says Hash covers the whole entry, as state formats before
	// 4 recorded it (own.EntryRecord reads it without a false drift).
	WholeHash bool
	// Rendered is a hash of the entry as the provider rendered it, so a
	// later plan can tell a changed declaration from a tool that stores
	// less than it was given.
	Rendered string
	// Extra lists the keys chronicle wrote into the entry as given
	// (target "TOOL" { extra = { … } }), sorted: they are chronicle's, so a
	// later write that no longer declares one removes it.
	Extra []string
	// Created says chronicle created the tool file holding the entry (none
	// was there): when its last entry goes and the file is left as
	// chronicle's provider writes an empty document, the file goes too.
	Created bool
}

// An Intent is a change apply is about to make, journalled before the
// change so that after a crash the result can be recognised as chronicle's.
type Intent struct {
	Address string
	Action  string // the plan's action word: create, update, delete, replace
	Path    string // for a link
	File    string // for an entry
	KeyPath []string
	Name    string
	Target  string
	Hash    string
	Time    time.Time
}

// A Machine is the name of the machine that last applied a state, and
// where that name came from: "machine file" (~/.chronicle/machine.hcl
// names it) or "hostname" (the short hostname, no machine file naming
// one). A name that came from the machine file and is now different means
// the file went missing or the home was copied: plan refuses.
type Machine struct {
	Name string
	From string
}
