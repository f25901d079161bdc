package console

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/skillhub"
	"github.com/chronicle-dev/chronicle/engine/skills"
	"github.com/chronicle-dev/chronicle/engine/state"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// A Review is the console's takeover review: what every tool has, classified
// against the configuration the state was applied from (the document of
// `chronicle scan --json`), and the plan for that configuration now. It is
// computed read-only and offline (no git remote is asked), without the
// state lock: it changes nothing, so it needs none, and a running apply
// never makes the console wait.
type Review struct {
	// ConfigDir is the state's config_dir; ConfigDirMissing says it is gone
	// (then the scan is against no configuration and there is no plan).
	ConfigDir        string    `json:"config_dir"`
	ConfigDirMissing bool      `json:"config_dir_missing"`
	StateSerial      uint64    `json:"state_serial"`
	ComputedAt       time.Time `json:"computed_at"`
	Offline          bool      `json:"offline"`
	// Command is what a person runs to carry out the plan.
	Command string `json:"command,omitempty"`
	// Errors are the configuration's errors (no plan is made then) or why
	// the state could not be read.
	Errors  []string      `json:"errors,omitempty"`
	Scan    scan.Report   `json:"scan"`
	Plan    *plan.Plan    `json:"plan,omitempty"`
	Summary *plan.Summary `json:"summary,omitempty"`
}

// reviewMaxAge is how old a review may be before a request has it computed
// again in the background (the answer is then the previous one).
const reviewMaxAge = 30 * time.Second

// A reviewCache holds the last review and the computation in progress.
type reviewCache struct {
	mu      sync.Mutex
	last    *Review
	running chan struct{} // closed when the computation in progress ends
}

// takeover returns the last review, and has a new one computed in the
// background when it is older than reviewMaxAge or the state changed since.
// With none computed yet, or with wait, it waits for the computation (or
// ctx).
func (h *API) takeover(ctx context.Context, wait bool) (*Review, error) {
	c := &h.review
	serial := h.hub.State().Serial
	c.mu.Lock()
	last := c.last
	stale := last == nil || last.StateSerial != serial || time.Since(last.ComputedAt) > reviewMaxAge
	if (stale || wait) && c.running == nil {
		done := make(chan struct{})
		c.running = done
		go func() {
			r := h.computeReview()
			c.mu.Lock()
			c.last, c.running = r, nil
			c.mu.Unlock()
			close(done)
		}()
	}
	running := c.running
	c.mu.Unlock()
	if last != nil && !wait || running == nil {
		return last, nil
	}
	select {
	case <-running:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last, nil
}

// computeReview scans the machine and plans the state's configuration,
// reading only.
func (h *API) computeReview() *Review {
	m := h.opts.Workspace
	r := &Review{ComputedAt: time.Now().UTC(), Offline: true, Scan: scan.NewReport(scan.Result{})}
	st, err := state.Load(h.opts.StatePath)
	if err != nil {
		r.Errors = append(r.Errors, err.Error())
		return r
	}
	r.StateSerial, r.ConfigDir = st.Serial, st.ConfigDir
	var cfg *config.Config
	if info, err := os.Stat(st.ConfigDir); st.ConfigDir == "" || err != nil || !info.IsDir() {
		r.ConfigDirMissing = true
	} else {
		var opts config.Options
		if m.LoadOptions != nil {
			opts = m.LoadOptions()
		}
		opts.Home, opts.Getenv, opts.KnownTools = h.opts.Home, h.opts.Getenv, m.KnownTools
		loaded, _, diags := config.Load(st.ConfigDir, opts)
		h.masker.Add(loaded.Sensitive...)
		for _, d := range diags {
			if d.Severity == hcl.DiagError {
				r.Errors = append(r.Errors, diagnosticText(d))
			}
		}
		if !diags.HasErrors() {
			cfg = loaded
		}
	}
	env, tools := m.Tools(cfg)
	reader := fsys.ReadOnly(fsys.OS{})
	var successions []provider.Succession
	if m.Successions != nil {
		successions = m.Successions(env, tools)
	}
	found := scan.Run(scan.Options{
		Env: env, Tools: tools, Config: cfg, State: st, View: toolfile.NewView(reader),
		Store: skills.Store{Dir: skillhub.StoreDir(m.ChronicleHome)}, Successions: successions,
	})
	r.Scan = scan.NewReport(found)
	if cfg == nil {
		return r
	}
	p := plan.Compute(plan.Inputs{
		Config: cfg, State: st, Tools: tools, Env: env, StoreDir: skillhub.StoreDir(m.ChronicleHome),
		HubCommand: m.HubCommand, HubError: m.HubError, Chronicle: h.opts.Version, Offline: true,
		Resolver: h.opts.Resolver, Masker: h.masker, Context: h.opts.Context, Reader: reader, Scratch: fsys.OS{}, EUID: os.Geteuid(),
		Lists: m.Lists, OAuth: m.OAuth,
	})
	sum := p.Summary()
	r.Plan, r.Summary = p, &sum
	r.Command = "chronicle apply --chdir " + shellQuote(st.ConfigDir)
	return r
}

// diagnosticText is one configuration error on one line, with its place.
func diagnosticText(d *hcl.Diagnostic) string {
	s := d.Summary
	if d.Detail != "" {
		s += ": " + d.Detail
	}
	if d.Subject != nil {
		s = fmt.Sprintf("%s:%d: %s", d.Subject.Filename, d.Subject.Start.Line, s)
	}
	return s
}

// shellQuote quotes a path for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
