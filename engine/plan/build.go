package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/textdiff"
)

// A builder carries one Compute call.
type builder struct {
	in      Inputs
	cfg     *config.Config
	st      *state.State
	plan    *Plan
	masker  *mask.Masker
	desired map[string]bool // addresses the configuration wants
	claimed map[string]string
	reads   map[string]readResult // by file + key path
	// cleanups remove what planning fetched (git clones).
	cleanups []func()
}

type readResult struct {
	entries []provider.Entry
	err     error
}

// Compute plans the configuration against the machine and the state.
func Compute(in Inputs) *Plan {
	cfg := in.Config
	if cfg == nil {
		cfg = &config.Config{}
	}
	b := &builder{
		in: in, cfg: cfg, st: in.State,
		plan: &Plan{
			FormatVersion: FormatVersion, Chronicle: in.Chronicle, Lineage: in.State.Lineage,
			Serial: in.State.Serial, ConfigDir: cfg.Dir, Sources: map[string]string{}, Destroy: in.Destroy,
		},
		masker:  &mask.Masker{},
		desired: map[string]bool{},
		claimed: map[string]string{},
		reads:   map[string]readResult{},
	}
	b.masker.Add(cfg.Sensitive...)
	for a := range in.Replace {
		b.plan.Replace = append(b.plan.Replace, a)
	}
	sort.Strings(b.plan.Replace)
	defer func() {
		for _, f := range b.cleanups {
			f()
		}
	}()
	b.settings()
	b.skills()
	b.links()
	b.removals()
	b.destroyGuard()
	return b.plan
}

func (b *builder) add(c Change) {
	b.desired[c.Address] = true
	if c.Action != NoOp {
		b.plan.Changes = append(b.plan.Changes, c)
	}
}

func (b *builder) diag(severity, address, summary, detail string, args ...any) {
	b.plan.Diagnostics = append(b.plan.Diagnostics, Diagnostic{
		Severity: severity, Address: address, Summary: summary, Detail: fmt.Sprintf(detail, args...),
	})
}

// source records what a file or folder held when planned.
func (b *builder) source(path, hash string) {
	if path != "" {
		b.plan.Sources[path] = hash
	}
}

// settings plans the state-only resources: services, policies, hub, chronova.
func (b *builder) settings() {
	for _, s := range b.cfg.Services {
		rec := *s
		old, known := b.st.Services[s.Name]
		b.setting(Change{Address: "service." + s.Name, Kind: KindService, Service: &rec}, known, old, rec)
	}
	for _, p := range b.cfg.Policies {
		rec := PolicyState(p)
		old, known := b.st.Policies[p.Service]
		b.setting(Change{Address: "policy." + p.Service, Kind: KindPolicy, Policy: &rec}, known, old, rec)
	}
	if h := b.cfg.Hub; h != nil {
		rec := state.Hub{Listen: h.Listen, Token: h.Token, Hostnames: h.Hostnames}
		b.setting(Change{Address: "hub", Kind: KindHub, Hub: &rec}, b.st.Hub != nil, b.st.Hub, &rec)
	}
	if cv := b.cfg.Chronova; cv != nil {
		rec := state.Chronova{APIKey: cv.APIKey, APIURL: cv.APIURL}
		b.setting(Change{Address: "chronova", Kind: KindChronova, Chronova: &rec}, b.st.Chronova != nil, b.st.Chronova, &rec)
	}
}

// setting adds c as a create when the state has no record, an update with
// the difference when the record differs, and nothing otherwise.
func (b *builder) setting(c Change, known bool, old, rec any) {
	switch {
	case !known:
		c.Action = Create
	case !sameJSON(old, rec):
		c.Action, c.Diff = Update, b.jsonDiff(c.Address, old, rec)
	}
	b.add(c)
}

func sameJSON(a, b any) bool {
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

func (b *builder) maskDiff(d string) string {
	lines := strings.Split(d, "\n")
	for i, l := range lines {
		lines[i] = b.masker.Text(l)
	}
	return strings.Join(lines, "\n")
}

// EntryHash is the hash of an entry as stored, which the state records.
func EntryHash(e provider.Entry) string { return entryHash(e) }

// entryHash is the hash of an entry as stored.
func entryHash(e provider.Entry) string {
	sum := sha256.Sum256(e.Canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// fileHash returns the hash of a file's bytes, or "absent".
func fileHash(path string) string {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "absent"
	}
	if err != nil {
		return "unreadable"
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// PathHash is how a plan records a file or folder it read: a file's bytes,
// a folder's tree, a symlink's target, or "absent".
func PathHash(path string) string {
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "absent"
	case err != nil:
		return "unreadable"
	case info.Mode()&os.ModeSymlink != 0:
		t, _ := os.Readlink(path)
		return "link:" + t
	case info.IsDir():
		h, err := skills.Hash(path)
		if err != nil {
			return "unreadable"
		}
		return h
	}
	return fileHash(path)
}

// read returns the entries at loc, read once per plan.
func (b *builder) read(p provider.Provider, loc provider.Location) ([]provider.Entry, error) {
	key := loc.File + "\x00" + strings.Join(loc.KeyPath, "\x00")
	if r, ok := b.reads[key]; ok {
		return r.entries, r.err
	}
	entries, err := p.Read(loc)
	if errors.Is(err, provider.ErrNotConfigured) {
		entries, err = nil, nil
	}
	b.reads[key] = readResult{entries, err}
	b.source(loc.File, fileHash(loc.File))
	return entries, err
}

// Unmanaged lists what the tools have that the plan does not touch: entries
// the configuration does not declare, and declared names in tools no link
// writes them to.
func (b *builder) unmanaged(r scan.Result) {
	for _, s := range r.Services {
		if s.Status == scan.StatusOwned || s.Status == scan.StatusDrift || s.Entry.Name == names.Hub {
			continue
		}
		b.plan.Unmanaged = append(b.plan.Unmanaged, Unmanaged{
			Tool: s.Location.Tool, Scope: s.Location.Scope, Project: s.Location.Project,
			Kind: "service", Name: s.Entry.Name, Status: s.Status, File: s.Location.File,
		})
	}
	for _, k := range r.Skills {
		if k.Status == skills.StatusManaged {
			continue
		}
		b.plan.Unmanaged = append(b.plan.Unmanaged, Unmanaged{
			Tool: k.Tool, Scope: k.Scope, Project: k.Project, Kind: "skill", Name: k.Name, Status: k.Status, File: k.Path,
		})
	}
}

// AddUnmanaged records the scan's items that the plan does not touch.
func (p *Plan) AddUnmanaged(r scan.Result, touched map[string]bool) {
	b := &builder{plan: p}
	b.unmanaged(r)
	out := p.Unmanaged[:0]
	for _, u := range p.Unmanaged {
		if !touched[u.File+"\x00"+u.Name] {
			out = append(out, u)
		}
	}
	p.Unmanaged = out
}

// Touched returns, for AddUnmanaged, the tool items the plan's changes
// concern (file + name), so they are not also listed as unmanaged.
func (p *Plan) Touched() map[string]bool {
	t := map[string]bool{}
	for _, c := range p.Changes {
		if c.Entry != nil {
			t[c.Entry.Location.File+"\x00"+c.Entry.Entry.Name] = true
		}
		if c.Link != nil {
			t[c.Link.Path+"\x00"+filepath.Base(c.Link.Path)] = true
		}
	}
	return t
}
