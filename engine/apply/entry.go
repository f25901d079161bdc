package apply

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/state"
)

// entry writes, records or removes one owned entry in a tool's file, after
// backing the file up. The file is re-read right before: an entry changed
// since the plan is not touched.
func (a *applier) entry(c plan.Change) error {
	e, loc := c.Entry.Entry, c.Entry.Location
	p, ok := a.o.Tools[loc.Tool]
	if !ok {
		return fmt.Errorf("%s: no provider for tool %s", c.Address, loc.Tool)
	}
	rec := a.record(c.Address)
	current, err := p.Read(loc)
	if err != nil && !errors.Is(err, provider.ErrNotConfigured) {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	actual := findEntry(current, e.Name)
	switch {
	case actual == nil || a.replace[c.Address] || plan.SameEntry(e, *actual):
	case rec != nil && hash(actual.Canonical) != rec.Hash:
		return fmt.Errorf("%s: the entry in %s was edited since the plan; not touched", c.Address, loc.File)
	case rec == nil && c.Action == plan.Create:
		return fmt.Errorf("%s: an entry %q appeared in %s since the plan; not overwritten", c.Address, e.Name, loc.File)
	}
	if err := a.backups.Add(loc.File); err != nil {
		return err
	}
	if c.Action == plan.Delete {
		if actual != nil {
			if err := p.Remove(loc, e.Name); err != nil {
				return fmt.Errorf("%s: %w", c.Address, err)
			}
		}
		a.forgetEntry(c.Address)
		return a.done(c.Address)
	}
	rendered, err := p.Render(e)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Address, err)
	}
	if actual == nil || !plan.SameEntry(e, *actual) {
		if err := p.Put(loc, e); err != nil {
			return fmt.Errorf("%s: %w", c.Address, err)
		}
	}
	after, err := p.Read(loc)
	if err != nil {
		return fmt.Errorf("%s: reading back %s: %w", c.Address, loc.File, err)
	}
	written := findEntry(after, e.Name)
	if written == nil {
		return fmt.Errorf("%s: %s does not hold the entry after writing", c.Address, loc.File)
	}
	a.forgetEntry(c.Address)
	a.st.Entries = append(a.st.Entries, state.Entry{
		Address: c.Address, Tool: loc.Tool, Scope: loc.Scope, Project: loc.Project, File: loc.File,
		KeyPath: loc.KeyPath, Name: e.Name, Hash: hash(written.Canonical), Rendered: plan.RenderedHash(rendered),
	})
	return a.done(c.Address)
}

func (a *applier) record(addr string) *state.Entry {
	for i := range a.st.Entries {
		if a.st.Entries[i].Address == addr {
			return &a.st.Entries[i]
		}
	}
	return nil
}

func (a *applier) forgetEntry(addr string) {
	out := a.st.Entries[:0]
	for _, e := range a.st.Entries {
		if e.Address != addr {
			out = append(out, e)
		}
	}
	a.st.Entries = out
}

func findEntry(entries []provider.Entry, name string) *provider.Entry {
	for i := range entries {
		if entries[i].Name == name {
			return &entries[i]
		}
	}
	return nil
}

func hash(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
