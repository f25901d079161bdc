package plan

import (
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// unmanaged lists what the tools have that the plan does not touch: entries
// the configuration does not declare, and declared names in tools no link
// writes them to. It scans through the plan's own View, so the listing
// describes the same bytes as the changes.
func (b *builder) unmanaged(r scan.Result) {
	touched := map[string]bool{}
	for _, c := range b.plan.Changes {
		if c.Entry != nil {
			touched[c.Entry.Location.File+"\x00"+c.Entry.Entry.Name] = true
		}
		if c.Link != nil {
			touched[c.Link.Path+"\x00"+filepath.Base(c.Link.Path)] = true
		}
		if c.File != nil {
			touched[c.File.Path] = true
		}
	}
	for _, s := range r.Services {
		if s.Status == scan.StatusOwned || s.Status == scan.StatusDrift || s.Entry.Name == names.Hub || touched[s.Location.File+"\x00"+s.Entry.Name] {
			continue
		}
		b.plan.Unmanaged = append(b.plan.Unmanaged, Unmanaged{
			Tool: s.Location.Tool, Scope: s.Location.Scope, Project: s.Location.Project,
			Kind: "service", Name: s.Entry.Name, Status: s.Status, File: s.Location.File,
		})
	}
	for _, in := range r.Instructions {
		// A root file's text is the user's: information scan gives, not an
		// item to take over.
		if in.Root || in.Status == scan.StatusOwned || in.Status == scan.StatusDrift || touched[in.Path] {
			continue
		}
		b.plan.Unmanaged = append(b.plan.Unmanaged, Unmanaged{
			Tool: in.Tool, Scope: in.Scope, Project: in.Project, Kind: in.Kind, Name: in.Name, Status: in.Status, File: in.Path,
		})
	}
	for _, k := range r.Skills {
		if k.Status == skills.StatusUnread && len(b.plan.Unmanaged) < b.in.UnmanagedShown {
			// One of the items shown: read, as a full scan would.
			k = scan.Reread(b.in.Hashes, k, skills.Store{Dir: b.in.StoreDir}, b.records)
		}
		if k.Status == skills.StatusManaged || touched[k.Path+"\x00"+k.Name] {
			continue
		}
		b.plan.Unmanaged = append(b.plan.Unmanaged, Unmanaged{
			Tool: k.Tool, Scope: k.Scope, Project: k.Project, Kind: "skill", Name: k.Name, Status: k.Status, File: k.Path,
		})
	}
}

// scanning starts the scan of every tool and returns where its result
// arrives.
func (b *builder) scanning() <-chan scan.Result {
	out := make(chan scan.Result, 1)
	opts := scan.Options{
		Env: b.in.Env, Tools: b.in.Tools, Config: b.cfg, Store: skills.Store{Dir: b.in.StoreDir},
		State: b.st, View: b.view, Hashes: b.in.Hashes, ManagedUnhashed: true,
		Glance: b.in.UnmanagedShown > 0,
	}
	go func() { out <- scan.Run(opts) }()
	return out
}
