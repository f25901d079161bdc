package plan

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/cores"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/textdiff"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// A builder carries one Compute call.
type builder struct {
	in      Inputs
	cfg     *config.Config
	st      *state.State
	plan    *Plan
	masker  *mask.Masker
	view    *toolfile.View
	tools   map[string]provider.Provider
	desired map[string]bool // addresses the configuration wants
	// claimed maps a link place to the address that puts a skill there.
	claimed map[string]string
	// shares maps the address of a link place another address claimed
	// (codex and agents share a folder) to that address.
	shares map[string]string
	// entryClaims maps an entry's location (file, key path, name) to the
	// address that writes it.
	entryClaims map[string]string
	// ruleClaims maps a permission rule's place (file, key path, text) to
	// the address that wants it.
	ruleClaims map[string]string
	// cleanups remove what planning fetched (git clones).
	cleanups []func()
	// records finds the state's records without a pass over its lists.
	records *state.Index
	// observed hashes what Before observations of central copies see:
	// in.Hashes, through the skill hash cache. A stale cached Before can
	// only make apply refuse (it observes every target again through the
	// seam before it writes), never write over something (decision 0050).
	observed *skills.Hasher
	// locations memoizes entryLocation by tool and project: a provider
	// may read a file to list its locations (Claude Code's projects).
	locations map[string]located
	// unreadable holds the tool files a change could not read (reported
	// with the change's address), so the scan's error for the same file
	// is not reported again.
	unreadable map[string]bool
	// kept holds the addresses of recorded entries and links this machine
	// does not plan but the configuration still wants (a tool behind
	// tools = ["*"] that is absent here, a project folder missing here):
	// they are not removed for that reason.
	kept map[string]bool
	// absent maps a tool that tools = ["*"] leaves out on this machine to
	// the addresses of what chronicle wrote for it, kept (noteAbsent).
	absent map[string][]string
	// leftOut maps a tool that tools = ["*"] brings to the services it
	// cannot hold, left out of it (leavesOut, noteLeftOut).
	leftOut map[string][]leftOut
	// variables are the environment variables the entries kept in tools
	// read themselves (noteUnset).
	variables []VariableUse
	// elsewhere holds the links whose project folder is not on this
	// machine: nothing is planned for them here.
	elsewhere map[*config.Link]bool
	// instr is what the links want of rules, commands and agents
	// (instructions.go).
	instr *instructionPlan
}

type located struct {
	loc provider.Location
	ok  bool
}

// Compute plans the configuration against the machine and the state, and
// returns the whole plan: its changes, each with what it saw at its target,
// the tools' unmanaged items, and every diagnostic and warning. It reads
// the machine through in.Reader only.
func Compute(in Inputs) *Plan {
	cfg := in.Config
	if cfg == nil {
		cfg = &config.Config{}
	}
	if in.Reader == nil {
		in.Reader = fsys.ReadOnly(fsys.OS{})
	}
	if in.Hashes == nil {
		in.Hashes = skills.NewHasher(in.Reader, nil)
	}
	if in.Masker == nil {
		in.Masker = mask.NewMasker()
	}
	b := &builder{
		in: in, cfg: cfg, st: in.State, masker: in.Masker,
		plan: &Plan{
			FormatVersion: FormatVersion, Chronicle: in.Chronicle, Lineage: in.State.Lineage,
			Serial: in.State.Serial, ConfigDir: cfg.Dir, Machine: cfg.Machine.Name, Destroy: in.Destroy, Offline: in.Offline,
			ConfigWarnings: in.ConfigWarnings,
		},
		view:        toolfile.NewView(in.Reader),
		observed:    in.Hashes,
		records:     in.State.Index(),
		tools:       map[string]provider.Provider{},
		desired:     map[string]bool{},
		claimed:     map[string]string{},
		shares:      map[string]string{},
		entryClaims: map[string]string{},
		ruleClaims:  map[string]string{},
		unreadable:  map[string]bool{},
		kept:        map[string]bool{},
		absent:      map[string][]string{},
		elsewhere:   map[*config.Link]bool{},
	}
	for _, p := range in.Tools {
		b.tools[p.Name()] = p
	}
	for a := range in.Replace {
		b.plan.Replace = append(b.plan.Replace, a)
	}
	sort.Strings(b.plan.Replace)
	defer func() {
		for _, f := range b.cleanups {
			f()
		}
	}()
	// The tools' own items (Unmanaged) are scanned while the plan is
	// built: the scan only reads, through the same View and hashes.
	scanned := b.scanning()
	b.settings()
	b.absentNotes()
	b.skills()
	b.links()
	b.instructions()
	b.contextCosts()
	b.removals()
	b.dryRun()
	b.destroyGuard()
	scan := <-scanned
	b.unread(scan.Errors)
	b.unmanaged(scan)
	b.warnings()
	b.noteUnset()
	b.origins()
	return b.plan
}

func (b *builder) add(c Change) {
	b.desired[c.Address] = true
	if c.Kind == KindEntry && c.Entry != nil && c.Action != Delete && c.Action != Conflict && c.Action != Read {
		b.variables = append(b.variables, VariableUses(c.Entry.Entry.Definition, c.Entry.Entry.Name, c.Entry.Location.Tool)...)
	}
	if c.Action != NoOp {
		b.plan.Changes = append(b.plan.Changes, c)
	}
}

func (b *builder) diag(severity, address, summary, detail string, args ...any) {
	b.plan.Diagnostics = append(b.plan.Diagnostics, Diagnostic{
		Severity: severity, Address: address, Summary: summary, Detail: b.masker.Text(fmt.Sprintf(detail, args...)),
	})
}

// warnings adds the plan-wide warnings: offline, and --replace addresses
// that match no change.
func (b *builder) warnings() {
	if b.in.Offline {
		b.diag("warning", "", "Offline", "--offline: git skills were not checked against their remotes; the plan shows what is known locally.")
	}
	for _, addr := range b.plan.Replace {
		if !b.plan.Has(addr) {
			b.diag("warning", addr, "Nothing to replace at "+addr, "--replace %s matches no change of this plan.", addr)
		}
	}
	if len(b.in.Ignore) > 0 {
		recorded := map[string]bool{}
		for _, a := range b.st.Addresses() {
			recorded[a] = true
		}
		for _, addr := range slices.Sorted(maps.Keys(b.in.Ignore)) {
			if !b.plan.Has(addr) && !b.desired[addr] && !recorded[addr] {
				b.diag("warning", addr, "Nothing to ignore at "+addr,
					"~/.chronicle/machine.hcl ignores %s, which the configuration does not write and the state does not record: check its spelling (chronicle state list shows the addresses), or chronicle machine --unignore %s.", addr, ShellQuote(addr))
			}
		}
	}
}

// settings plans the state-only resources: services, policies, hub,
// profiles, chronova.
func (b *builder) settings() {
	// Comparing thousands of services with their records is most of the
	// work: it is done on every core first.
	svcs := b.cfg.Services
	same := make([]bool, len(svcs))
	cores.Each(len(svcs), func(i int) {
		if old, known := b.st.Services[svcs[i].Name]; known {
			same[i] = sameJSON(old, *svcs[i])
		}
	})
	for i, s := range svcs {
		rec := *s
		old, known := b.st.Services[s.Name]
		b.compared(Change{Address: "service." + s.Name, Kind: KindService, Service: &rec}, known, same[i], old, rec)
	}
	for _, p := range b.cfg.Policies {
		rec := state.Policy{Enabled: p.Enabled, DisabledTools: p.DisabledTools, EnabledTools: p.EnabledTools}
		old, known := b.st.Policies[p.Service]
		b.setting(Change{Address: "policy." + p.Service, Kind: KindPolicy, Policy: &rec}, known, old, rec)
	}
	if h := b.cfg.Hub; h != nil {
		rec := state.Hub{Listen: h.Listen, Token: h.Token, Hostnames: h.Hostnames, Tools: h.Tools, SearchThreshold: h.SearchThreshold, Always: h.Always, MaxSessions: h.MaxSessions, LocalClients: h.LocalClients}
		b.setting(Change{Address: "hub", Kind: KindHub, Hub: &rec}, b.st.Hub != nil, b.st.Hub, &rec)
		if h.LocalClients == config.LocalClientsOpen {
			b.diag("warning", "hub", "The hub's MCP endpoints are open to every local process",
				"hub { local_clients = \"open\" }: any program on this machine, of any user (and any container on the host network), can call every service's tools with your credentials through http://%s/mcp without a token. Remove local_clients (the default, \"token\", asks for ~/.chronicle/hub.token) unless no one else uses this machine.", config.DialAddress(h.Listen))
		}
	}
	for _, p := range b.cfg.Profiles {
		rec := state.Profile{Services: p.Services, Tools: p.Tools, Exposure: p.Exposure}
		old, known := b.st.Profiles[p.Name]
		b.setting(Change{Address: "profile." + p.Name, Kind: KindProfile, Profile: &rec}, known, old, rec)
	}
	if cv := b.cfg.Chronova; cv != nil {
		rec := state.Chronova{APIKey: cv.APIKey, APIURL: cv.APIURL}
		b.setting(Change{Address: "chronova", Kind: KindChronova, Chronova: &rec}, b.st.Chronova != nil, b.st.Chronova, &rec)
	}
}

// setting adds c as a create when the state has no record, an update with
// the difference when the record differs, and nothing otherwise.
func (b *builder) setting(c Change, known bool, old, rec any) {
	b.compared(c, known, known && sameJSON(old, rec), old, rec)
}

// compared is setting with the comparison of old and rec made (same).
func (b *builder) compared(c Change, known, same bool, old, rec any) {
	switch {
	case !known:
		c.Action = Create
	case !same:
		c.Action, c.Diff = Update, b.jsonDiff(c.Address, old, rec)
	}
	b.add(c)
}

// sameJSON reports whether a and b encode to the same JSON. Values deeply
// equal do (JSON is a function of the value); only the others are encoded,
// to tell the differences JSON does not see (a nil and an empty list).
func sameJSON(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// jsonDiff shows a change of a state record as a diff of its JSON.
func (b *builder) jsonDiff(addr string, before, after any) string {
	x, _ := json.MarshalIndent(before, "", "  ")
	y, _ := json.MarshalIndent(after, "", "  ")
	return b.maskDiff(textdiff.Unified(addr+" (state)", addr+" (configuration)", string(x)+"\n", string(y)+"\n"))
}

// maskDiff masks a diff of a tool's entries, rules or files as a person
// reads it: every value under a key that names a secret is hidden, in
// whichever format the tool keeps (mask.Masker.Fields).
func (b *builder) maskDiff(d string) string { return b.masker.Fields(d) }

// linkAddress is link.<name>["<tool>"].<rest>.
func linkAddress(link, tool, rest string) string {
	return fmt.Sprintf("link.%s[%q].%s", link, tool, rest)
}

// locationKey identifies an entry's place: file, key path and name.
func locationKey(file string, keyPath []string, name string) string {
	return file + "\x00" + strings.Join(keyPath, "\x00") + "\x00" + name
}

// storePath is the central copy of a skill.
func storePath(store, name string) string { return filepath.Join(store, name) }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func where(project string) string {
	if project == "" {
		return " at user level"
	}
	return " for project " + project
}
