package plan

import (
	"context"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/catalog"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/lockfile"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// Inputs are what a plan is computed from.
type Inputs struct {
	Config *config.Config
	// ConfigWarnings are the configuration's warnings, carried into the plan
	// so it is shown whole.
	ConfigWarnings hcl.Diagnostics
	State          *state.State
	// Tools are the providers, built-in and from tool blocks, in the order
	// the scan lists them.
	Tools []provider.Provider
	Env   provider.Env
	// StoreDir is the central skills folder, ~/.chronicle/skills.
	StoreDir string
	// HubCommand is the command line of the hub entry (chronicle serve
	// --stdio …); when empty, HubError says why it cannot be written.
	HubCommand []string
	HubError   string
	// HubTokenFile is the hub's own token, ~/.chronicle/hub.token (of
	// chronicle's folder): an HTTP hub entry refers to it when hub { token }
	// is not set. "": the one under Env.Home.
	HubTokenFile string
	// Replace holds the --replace addresses.
	Replace map[string]bool
	// Lists reads and edits the lists of permission rules some tools keep
	// beside their MCP config (Location.Deny); nil plans none of them (a
	// policy's deny list then applies through the hub only).
	Lists provider.ListEditor
	// OAuth says how each tool logs in by itself to a service with an
	// oauth block that a link writes straight into it (providers.OAuth);
	// a tool missing from it, and every tool when it is nil, uses the hub
	// for such a service.
	OAuth provider.OAuthTable
	// Ignore holds the addresses this machine leaves alone (machine.hcl's
	// ignore): nothing written, removed or reported as a conflict there.
	Ignore map[string]bool
	// Import holds addresses whose entries, links and copies, when they are
	// already there but chronicle did not make them, are taken over as they
	// are (adopt, chronicle import): recorded as chronicle's, nothing written.
	// An entry that holds in plain text a secret the declaration refers to is
	// imported too, and rewritten with the reference by the next apply.
	Import map[string]bool
	// Destroy allows a plan that removes everything chronicle manages.
	Destroy bool
	// Chronicle is the running version, recorded in the plan.
	Chronicle string
	// Offline skips every network call: git skills are not checked
	// against their remotes.
	Offline bool
	// Resolver resolves the auth of private git skills, in memory.
	Resolver secret.Resolver
	// Masker is the process's masking authority: what the plan resolves or
	// finds sensitive is registered with it.
	Masker *mask.Masker
	// Progress receives clone progress (a terminal's stderr), or nil.
	Progress io.Writer
	// Context bounds network calls; nil means context.Background().
	Context context.Context
	// Reader is how the plan looks at the machine: it cannot write.
	Reader fsys.Reader
	// Hashes hashes the skill trees whose hash is no Before observation —
	// the declared sources, and the scan's classification of skills
	// folders — through the skill hash cache: engine/hashcache's
	// Cache.Hasher over Reader. Nil: one without a cache (each tree still
	// hashed once).
	Hashes *skills.Hasher
	// Scratch makes and removes the temporary folders git fetches go to;
	// nothing else of the plan writes.
	Scratch fsys.System
	// Catalog is the catalogue cache the HTTP hub wrote (nil when there is
	// none): what each service lists, with token costs, for Plan.Context.
	Catalog *catalog.File
	// Commands are the command lines the plan's hints tell the user to
	// run; the zero value names chronicle apply and chronicle import.
	Commands Commands
	// Lock is the configuration's lock file, or nil when it has none: a
	// git skill it locks is planned at the locked commit, not the tip.
	Lock *lockfile.File
	// UnmanagedShown is how many of the plan's unmanaged items its reader
	// is shown (the human view's first 20, then counts); 0 means all. The
	// skills folders' entries past them whose name no declared skill has
	// are listed without being read (skills.StatusUnread): counted, their
	// SKILL.md not parsed, their tree not hashed.
	UnmanagedShown int
	// EUID is the effective user id that will apply the plan (os.Geteuid),
	// or -1 where there is none: files it cannot write with their owner
	// kept are conflicts.
	EUID int
}
