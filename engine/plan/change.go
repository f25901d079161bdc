package plan

import (
	"github.com/chronicle-dev/chronicle/engine/observe"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// A Kind is the kind of resource a change concerns.
type Kind string

// The kinds of resource chronicle manages.
const (
	KindService  Kind = "service"  // a declared service, recorded in the state for the hub
	KindPolicy   Kind = "policy"   // a policy, recorded in the state for the hub
	KindHub      Kind = "hub"      // the hub's settings
	KindProfile  Kind = "profile"  // a toolset the hub serves at its own endpoint
	KindChronova Kind = "chronova" // the Chronova bridge's settings
	KindSkill    Kind = "skill"    // a skill in the central store
	KindLink     Kind = "link"     // a skill linked (or copied) into a tool's folder
	KindEntry    Kind = "entry"    // an entry chronicle owns in a tool's MCP config
	// KindToolFile is a tool file chronicle created, removed once its last
	// entry is and nothing else is left in it.
	KindToolFile Kind = "tool_file"
	KindBlock    Kind = "block" // a marked block of a rule in a file shared with the user
	KindFile     Kind = "file"  // a rule, command or agent file chronicle owns whole
	// KindRule is a permission rule in a list shared with the user (a deny
	// rule of Devin's permissions.deny).
	KindRule Kind = "rule"
)

// A Change is one thing apply would do. It carries what apply needs, so a
// saved plan can be applied without the configuration.
type Change struct {
	Address string `json:"address"`
	Kind    Kind   `json:"kind"`
	Action  Action `json:"action"`
	Reason  string `json:"reason,omitempty"`
	// From is, for a change of a for_each instance, the block and key it
	// comes from: service.github["acme"].
	From string `json:"from,omitempty"`
	// Path is the file or folder the change touches, when it touches one.
	Path string `json:"path,omitempty"`
	// Diff is a unified diff of the text that changes (masked).
	Diff string `json:"diff,omitempty"`
	// Before is what the plan saw at the change's target (Path): apply
	// looks again, through the same code, and touches nothing there unless
	// it is still the same. State-only changes have none.
	Before *observe.Observation `json:"before,omitempty"`

	Service  *service.Service `json:"service,omitempty"`
	Policy   *state.Policy    `json:"policy,omitempty"`
	Hub      *state.Hub       `json:"hub,omitempty"`
	Profile  *state.Profile   `json:"profile,omitempty"`
	Chronova *state.Chronova  `json:"chronova,omitempty"`
	Skill    *SkillSpec       `json:"skill,omitempty"`
	Link     *LinkSpec        `json:"link,omitempty"`
	Entry    *EntrySpec       `json:"entry,omitempty"`
	Block    *BlockSpec       `json:"block,omitempty"`
	File     *FileSpec        `json:"file,omitempty"`
	ToolFile *ToolFileSpec    `json:"tool_file,omitempty"`
	Rule     *RuleSpec        `json:"rule,omitempty"`
	// SkillFiles lists, for a skill change, every file of the skill that
	// differs between the central copy and the declared source (Diff shows
	// them to people).
	SkillFiles []SkillFile `json:"skill_files,omitempty"`
}

// A ToolFileSpec is a tool file chronicle created and removes with its
// last entry. The change's Before is the file as the removal of those
// entries leaves it — what chronicle's provider writes for an empty
// document — so apply removes it only when it is exactly that.
type ToolFileSpec struct {
	Tool string `json:"tool"`
	// Entries are the addresses of the entry removals that empty it: when
	// one fails, the file stays.
	Entries []string `json:"entries"`
}

// A SkillSpec is a skill to hold in the central store.
type SkillSpec struct {
	Name   string `json:"name"`
	Source string `json:"source,omitempty"` // the local folder to import from
	Hash   string `json:"hash"`             // its tree hash when planned
	Store  string `json:"store"`            // the central copy: ~/.chronicle/skills/<name>
	// Git is set for a skill taken from a repository: apply fetches it again
	// and checks it is still at the planned commit.
	Git *GitSource `json:"git,omitempty"`
}

// A GitSource says where a git skill comes from.
type GitSource struct {
	URL     string       `json:"url"`
	Ref     string       `json:"ref,omitempty"`
	Path    string       `json:"path,omitempty"`
	SHA     string       `json:"sha"`
	Auth    secret.Value `json:"auth,omitempty"`
	MaxSize int64        `json:"max_size,omitempty"`
	// Locked says that SHA comes from the lock file: apply fetches it by
	// SHA rather than the tip of Ref, which may have moved on.
	Locked bool `json:"locked,omitempty"`
}

// A LinkSpec is a skill placed in a tool's skills folder.
type LinkSpec struct {
	Tool   string `json:"tool"`
	Skill  string `json:"skill"`
	Path   string `json:"path"`   // where the link (or copy) goes
	Target string `json:"target"` // the central copy it points to
	Mode   string `json:"mode"`   // symlink or copy
	// Hash is, for a copy, the tree hash the copy will have.
	Hash string `json:"hash,omitempty"`
}

// An EntrySpec is an entry chronicle writes into, or removes from, a tool's
// MCP config.
type EntrySpec struct {
	Location provider.Location `json:"location"`
	Entry    provider.Entry    `json:"entry"`
	// RecordOnly says the entry is already there and is only recorded as
	// chronicle's (an import): apply checks Before and writes nothing.
	RecordOnly bool `json:"record_only,omitempty"`
	// InPlace says the file is hard-linked and --replace asked to write it
	// in place (after a backup) rather than replace it, so the links stay.
	InPlace bool `json:"in_place,omitempty"`
	// Rendered is the hash of the entry as the provider renders it, recorded
	// in the state to tell a changed declaration from a tool that stores
	// less than it was given.
	Rendered string `json:"rendered,omitempty"`
	// Takeover names the address that recorded this entry until now (a
	// renamed link): apply records it under the new address instead.
	Takeover string `json:"takeover,omitempty"`
	// DropExtra lists the keys chronicle wrote through extra before that
	// the entry no longer declares: the write removes them.
	DropExtra []string `json:"drop_extra,omitempty"`
	// HubToken is the hub's token file when the entry refers to it (an
	// HTTP hub entry): the plan keeps the reference and shows it masked;
	// apply makes the file when missing and writes its content in the
	// reference's place (docs/decisions/0145).
	HubToken string `json:"hub_token,omitempty"`
}

// Counted reports how the change counts in the summary line.
func (c Change) counts() (add, change, remove, conflict int) {
	switch c.Action {
	case Create:
		return 1, 0, 0, 0
	case Update:
		return 0, 1, 0, 0
	case Delete:
		return 0, 0, 1, 0
	case Replace:
		return 1, 0, 1, 0
	case Conflict:
		return 0, 0, 0, 1
	}
	return 0, 0, 0, 0
}
