package plan

import (
	"bytes"

	"maps"
	"slices"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// ToolEntry returns the entry svc is written as in tool: the service's
// definition with the target's args, env, url and headers in place of its
// own; the target's timeout, else the service's where it sets one; each
// tool list from the target, else from the policy; and the target's extra
// keys. policy and target may be nil. fromPolicy reports whether a tool
// list came from the policy (which a tool with no field for it may leave
// to the hub).
func ToolEntry(svc *service.Service, policy *config.Policy, target *config.Target, tool string) (e provider.Entry, fromPolicy bool) {
	e = provider.Entry{Name: EntryName(svc, tool), Definition: target.Definition(svc.Definition), Enabled: true}
	if svc.Timeout != service.DefaultTimeout {
		// A timeout the declaration sets is the tool's too, where it has one.
		e.Timeout = svc.Timeout
	}
	if target.Has("timeout") {
		e.Timeout = target.Timeout
	}
	if target.Has("enabled_tools") {
		e.EnabledTools = target.EnabledTools
	} else if policy != nil && policy.EnabledTools != nil {
		e.EnabledTools, fromPolicy = policy.EnabledTools, true
	}
	if target.Has("disabled_tools") {
		e.DisabledTools = target.DisabledTools
	} else if policy != nil && policy.DisabledTools != nil {
		e.DisabledTools, fromPolicy = policy.DisabledTools, true
	}
	if target.Has("extra") && len(target.Extra) > 0 {
		e.Extra = maps.Clone(target.Extra)
	}
	return e, fromPolicy
}

// WithoutPolicyLists returns e without the tool lists the policy gave it
// (those the target does not set).
func WithoutPolicyLists(e provider.Entry, target *config.Target) provider.Entry {
	if !target.Has("enabled_tools") {
		e.EnabledTools = nil
	}
	if !target.Has("disabled_tools") {
		e.DisabledTools = nil
	}
	return e
}

// ownedExtra checks the extra keys of e against the keys p models. A key
// chronicle wrote through extra before (rec) that p models now — a later
// version of chronicle started to model it — is a warning, and the
// attribute that models it wins: the key is left out of extra. Any other
// modelled key is an error naming the attribute to use; ok is false then.
func (b *builder) ownedExtra(addr string, p provider.Provider, target *config.Target, e *provider.Entry) (ok bool) {
	if len(e.Extra) == 0 {
		return true
	}
	owned := p.OwnedKeys()
	rec := b.entryRecord(addr)
	ok = true
	for _, k := range e.Extra.Keys() {
		attr, modelled := owned[k]
		if !modelled {
			continue
		}
		err := &provider.OwnedKeyError{Tool: p.Name(), Key: k, Attribute: attr}
		if rec != nil && slices.Contains(rec.Extra, k) {
			delete(e.Extra, k)
			b.diag("warning", addr, "Extra key now modelled by chronicle",
				"%s: chronicle wrote %q into %s's entry through extra before, and now models it: the value the configuration gives through %s is written instead. Remove %q from extra.", target.ExtraRange, k, p.Name(), attrOrService(attr), k)
			continue
		}
		b.diag("error", addr, "Extra key owned by chronicle", "%s: %s.", target.ExtraRange, err)
		ok = false
	}
	if len(e.Extra) == 0 {
		e.Extra = nil
	}
	return ok
}

func attrOrService(attr string) string {
	if attr == "" {
		return "the service"
	}
	return attr
}

// dropped returns the extra keys chronicle wrote into the entry before
// (rec) that e no longer declares and p does not model: the write removes
// them.
func dropped(rec []string, p provider.Provider, e provider.Entry) []string {
	if len(rec) == 0 {
		return nil
	}
	var out []string
	owned := p.OwnedKeys()
	for _, k := range rec {
		if _, declared := e.Extra[k]; declared {
			continue
		}
		if _, modelled := owned[k]; !modelled {
			out = append(out, k)
		}
	}
	return out
}

// HoldsTimeout reports whether a tool's entry got holds want's timeout:
// the same, or a tool with no field for one (want renders alike with
// got's timeout).
func HoldsTimeout(p provider.Provider, want, got provider.Entry) bool {
	if want.Timeout == got.Timeout {
		return true
	}
	a, err1 := p.Render(want)
	with := want
	with.Timeout = got.Timeout
	b, err2 := p.Render(with)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

// unwrittenTimeout warns when a target sets a timeout for a tool that
// keeps none.
func (b *builder) unwrittenTimeout(addr string, p provider.Provider, target *config.Target, e provider.Entry) {
	if !target.Has("timeout") {
		return
	}
	none := e
	none.Timeout = 0
	if HoldsTimeout(p, e, none) && e.Timeout != 0 {
		b.diag("warning", addr, "Timeout not written to "+p.Name(),
			"%s keeps no per-server timeout, so timeout = %q in target %q is not written (the hub uses the service's own timeout).", p.Name(), e.Timeout, target.Tool)
	}
}
