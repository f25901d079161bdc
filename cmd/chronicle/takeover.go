package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/adopt"
	"github.com/chronicle-dev/chronicle/engine/apply"
	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers"
)

// isHubEntry reports whether an entry named "chronicle" starts chronicle's
// hub (chronicle serve --stdio), wherever the binary lives.
func isHubEntry(e provider.Entry) bool {
	if !strings.HasPrefix(filepath.Base(e.Command), "chronicle") || len(e.Args) < 2 {
		return false
	}
	first, _ := e.Args[0].Literal()
	second, _ := e.Args[1].Literal()
	return first == "serve" && second == "--stdio"
}

// takeover records as chronicle's what adopt (or init) declared, exactly
// through the path apply uses: the configuration in dir is planned with
// the proposal's addresses imported (an entry already there and identical —
// or holding the declared secret in plain text — is recorded, nothing
// written), and the resulting changes that concern those addresses are
// applied: services and policies into the state, skills into the central
// store, entries and links recorded; with linkSkills, the tools' skill
// folders are moved into a kept backup set and linked. Other pending
// changes of the configuration are left for plan and apply.
func (a *app) takeover(m *workspace, dir string, p *adopt.Proposal, linkSkills bool) (*apply.Result, []plan.Change, error) {
	mine := map[string]bool{}
	imports := map[string]bool{}
	replace := map[string]bool{}
	for _, s := range p.Services {
		mine["service."+s.Name], mine["policy."+s.Name] = true, true
	}
	for _, s := range p.Skills {
		mine["skill."+s.Name] = true
	}
	for _, l := range p.Links {
		for _, addr := range l.Addresses() {
			mine[addr], imports[addr] = true, true
		}
		for _, addr := range l.SkillAddresses() {
			mine[addr], imports[addr] = true, true
			if linkSkills {
				replace[addr] = true
			}
		}
	}
	opts := config.Options{Home: m.home, KnownTools: providers.Names(), Vars: nil}
	if in, err := a.machineInputs(m.home); err == nil {
		// The tools present, for a link of the configuration that says
		// tools = ["*"].
		opts.Machine, opts.Present = in.facts, in.present
	}
	cfg, _, diags := config.Load(dir, opts)
	if diags.HasErrors() {
		return nil, nil, fmt.Errorf("the configuration in %s does not load, so nothing was recorded: %s", dir, diags.Error())
	}
	if m2, err := a.workspace(cfg); err == nil {
		m = m2
	}
	st, err := m.loadState()
	if err != nil {
		return nil, nil, err
	}
	hubCmd, hubErr := a.hubCommand(m)
	pl := plan.Compute(plan.Inputs{
		Lists: providers.Lists{}, OAuth: providers.OAuth,
		Config: cfg, State: st, Tools: m.tools, Env: m.env, StoreDir: m.store.Dir, HubCommand: hubCmd, HubError: hubErr,
		Import: imports, Replace: replace, Chronicle: version, Offline: true, Resolver: a.resolver(), Masker: a.masker,
		Context: a.ctx, Reader: fsys.ReadOnly(fsys.OS{}), Scratch: fsys.OS{}, EUID: os.Geteuid(),
	})
	take := *pl
	take.Changes, take.Diagnostics = nil, nil
	var left []plan.Change
	for _, c := range pl.Changes {
		switch {
		case !mine[c.Address] || c.Action == plan.Conflict:
			if c.Action != plan.Read {
				left = append(left, c)
			}
		case c.Kind == plan.KindEntry && c.Action == plan.Update && !c.Entry.RecordOnly && !replace[c.Address]:
			left = append(left, c) // would rewrite an entry: left for apply
		default:
			take.Changes = append(take.Changes, c)
		}
	}
	for _, d := range pl.Errors() {
		if mine[d.Address] {
			return nil, left, fmt.Errorf("%s: %s: %s; nothing was recorded", d.Address, d.Summary, d.Detail)
		}
	}
	if !take.HasChanges() {
		return &apply.Result{}, left, nil
	}
	r, err := apply.Apply(&take, apply.Options{
		Lists: providers.Lists{},
		State: st, Tools: m.tools, System: fsys.OS{}, ChronicleHome: m.chronicleHome, StoreDir: m.store.Dir,
		SnapshotDir: filepath.Join(m.chronicleHome, "snapshots"), ConfigDir: resolvedDir(cfg.Dir), Version: version,
		Resolver: a.resolver(), Context: a.ctx,
	})
	return r, left, err
}

// writeTakeover says what adopt recorded as chronicle's and what it left.
func (a *app) writeTakeover(r *apply.Result, left []plan.Change) {
	if r != nil && len(r.Applied) > 0 {
		var entries, links, texts, other int
		wrapped := false
		for _, c := range r.Applied {
			switch c.Kind {
			case plan.KindEntry:
				entries++
			case plan.KindLink:
				links++
			case plan.KindBlock, plan.KindFile:
				texts++
				wrapped = wrapped || (c.Block != nil && c.Block.Wrap)
			default:
				other++
			}
		}
		fmt.Fprintf(a.stdout, "\nRecorded as chronicle's: %s, %s, %s, %s (nothing in the tools was rewritten", count(entries, "tool entry", "tool entries"), count(links, "skill link", "skill links"), count(texts, "rule, command or agent", "rules, commands and agents"), count(other, "service, policy or skill", "services, policies and skills"))
		if wrapped {
			fmt.Fprint(a.stdout, " but the markers put around the text of the root files taken over as rules")
		}
		fmt.Fprintln(a.stdout, ").")
	}
	if r != nil {
		for _, f := range r.Failed {
			fmt.Fprintf(a.stdout, "  ! %s\n", f.Err)
		}
	}
	slices.SortFunc(left, func(x, y plan.Change) int { return strings.Compare(x.Address, y.Address) })
	if len(left) > 0 {
		fmt.Fprintln(a.stdout, "\nLeft for chronicle plan and apply:")
		for _, c := range left {
			fmt.Fprintf(a.stdout, "  %s %s: %s\n", c.Action.Symbol(), c.Address, c.Reason)
		}
	}
}
