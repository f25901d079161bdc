package adopt

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/config"
	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/plan"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/scan"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// A member is one tool's entry of an adopted service, secrets replaced.
type member struct {
	tool  string
	entry provider.Entry
	// extra are the entry's keys its provider does not model that adopt
	// can declare; left are those it cannot (they look secret).
	extra provider.Extra
	left  []string
}

func newMember(s scan.Service) member {
	m := member{tool: s.Location.Tool, entry: s.Entry}
	for _, k := range s.Entry.Extra.Keys() {
		v := s.Entry.Extra[k]
		if looksSecret(k, v) {
			m.left = append(m.left, fmt.Sprintf("%s's %q of entry %q", m.tool, k, s.Entry.Name))
			continue
		}
		if m.extra == nil {
			m.extra = provider.Extra{}
		}
		m.extra[k] = v
	}
	return m
}

// looksSecret reports whether a value written as given would put a secret
// into the configuration: a string under a secret-looking key or shaped
// like a credential, at any depth.
func looksSecret(key string, v any) bool {
	switch x := v.(type) {
	case string:
		return x != "" && !toolInput.MatchString(x) && (mask.Named(key, x) != x || secret.LooksSecret(key))
	case []any:
		return slices.ContainsFunc(x, func(e any) bool { return looksSecret(key, e) })
	case map[string]any:
		for k, e := range x {
			if looksSecret(k, e) {
				return true
			}
		}
	}
	return false
}

// mergeable returns the adopted service m's entry can join: one started
// with the same command and args (and working directory), or reached at
// the same url, that a link writes into m's tool under the entry's own
// name, and whose entries of m's tool (if any) have m's own values.
// Everything else a tool's entry has of its own goes into its target
// block; a service holds one target per tool.
func mergeable(candidates []*Declaration, m member) *Declaration {
	for _, svc := range candidates {
		if !sameServer(svc.members[0].entry, m.entry) || !writesUnder(svc, m) {
			continue
		}
		fits := true
		for _, o := range svc.members {
			if o.tool == m.tool && !sameValues(o, m) {
				fits = false
			}
		}
		if fits {
			return svc
		}
	}
	return nil
}

// writesUnder reports whether a link writes svc into m's tool under the
// name m's entry has there.
func writesUnder(svc *Declaration, m member) bool {
	return plan.EntryName(&service.Service{Name: svc.Name, Origin: svc.Origin}, m.tool) == m.entry.Name
}

// sameServerIn returns the first of candidates that is m's server, or nil.
func sameServerIn(candidates []*Declaration, m member) *Declaration {
	for _, svc := range candidates {
		if sameServer(svc.members[0].entry, m.entry) {
			return svc
		}
	}
	return nil
}

// sameServer reports whether two entries start the same program with the
// same arguments, or reach the same url, the same way.
func sameServer(a, b provider.Entry) bool {
	x, y := a.Definition.Normal(), b.Definition.Normal()
	return x.Transport == y.Transport && x.Command == y.Command && x.Cwd == y.Cwd &&
		slices.EqualFunc(x.Args, y.Args, secret.Value.Equal) && x.URL.Equal(y.URL)
}

// sameValues reports whether two entries of one server have the same values
// a target can hold.
func sameValues(a, b member) bool {
	x, y := a.entry.Definition.Normal(), b.entry.Definition.Normal()
	return maps.EqualFunc(x.Env, y.Env, secret.Value.Equal) && maps.EqualFunc(x.Headers, y.Headers, secret.Value.Equal) &&
		a.entry.Timeout == b.entry.Timeout && slices.Equal(a.entry.EnabledTools, b.entry.EnabledTools) &&
		slices.Equal(a.entry.DisabledTools, b.entry.DisabledTools) && a.extra.Equal(b.extra)
}

// addNotes adds the secret notes of another entry, one per variable.
func addNotes(notes, more []SecretNote) []SecretNote {
	for _, n := range more {
		if !slices.ContainsFunc(notes, func(o SecretNote) bool { return o.Var == n.Var }) {
			notes = append(notes, n)
		}
	}
	return notes
}

// settle works out, from the service's entries, what the service block
// itself says and what each tool's target block says: a timeout or tool
// lists every entry has belong to the service (the lists as its policy);
// otherwise each entry's are its own. Env and headers are the first
// entry's; another tool's that differ are its own. Keys a provider does
// not model are always the tool's own (extra).
func (svc *Declaration) settle() {
	first := svc.members[0].entry
	common := true
	for _, m := range svc.members[1:] {
		common = common && m.entry.Timeout == first.Timeout
	}
	// The service's timeout is written to the tools only when it is not
	// the default; an entry's own 60s stays the entry's.
	serviceTimeout := common && first.Timeout != 0 && first.Timeout != service.DefaultTimeout
	if serviceTimeout {
		svc.Timeout = first.Timeout
	}
	sameLists := true
	for _, m := range svc.members[1:] {
		sameLists = sameLists && slices.Equal(m.entry.EnabledTools, first.EnabledTools) && slices.Equal(m.entry.DisabledTools, first.DisabledTools)
	}
	if sameLists && (len(first.EnabledTools) > 0 || len(first.DisabledTools) > 0) {
		svc.Policy = &config.Policy{Service: svc.Name, EnabledTools: first.EnabledTools, DisabledTools: first.DisabledTools}
	}
	base := first.Definition.Normal()
	done := map[string]bool{}
	for _, m := range svc.members {
		svc.Left = append(svc.Left, m.left...)
		if done[m.tool] {
			continue // the same values as the tool's first entry (mergeable)
		}
		done[m.tool] = true
		t := &config.Target{Tool: m.tool, Set: map[string]bool{}}
		def := m.entry.Definition.Normal()
		if !maps.EqualFunc(def.Env, base.Env, secret.Value.Equal) {
			t.Env, t.Set["env"] = nonNil(def.Env), true
		}
		if !maps.EqualFunc(def.Headers, base.Headers, secret.Value.Equal) {
			t.Headers, t.Set["headers"] = nonNil(def.Headers), true
		}
		if !serviceTimeout && m.entry.Timeout != 0 {
			t.Timeout, t.Set["timeout"] = m.entry.Timeout, true
		}
		if !sameLists {
			if len(m.entry.EnabledTools) > 0 {
				t.EnabledTools, t.Set["enabled_tools"] = m.entry.EnabledTools, true
			}
			if len(m.entry.DisabledTools) > 0 {
				t.DisabledTools, t.Set["disabled_tools"] = m.entry.DisabledTools, true
			}
		}
		if len(m.extra) > 0 {
			t.Extra, t.Set["extra"] = m.extra, true
		}
		if len(t.Set) > 0 {
			svc.Targets = append(svc.Targets, t)
		}
	}
	slices.SortStableFunc(svc.Targets, func(a, b *config.Target) int {
		switch {
		case a.Tool < b.Tool:
			return -1
		case a.Tool > b.Tool:
			return 1
		}
		return 0
	})
}

// nonNil returns m, or an empty map for none: a target's empty env says
// "no env", where a missing one says "the service's".
func nonNil(m map[string]secret.Value) map[string]secret.Value {
	if m == nil {
		return map[string]secret.Value{}
	}
	return m
}

// targetBlock writes a target's attributes.
func targetBlock(b *hclwrite.Body, t *config.Target) {
	if t.Has("env") {
		b.SetAttributeRaw("env", tokensForMap(t.Env))
	}
	if t.Has("headers") {
		b.SetAttributeRaw("headers", tokensForMap(t.Headers))
	}
	if t.Has("timeout") {
		b.SetAttributeValue("timeout", cty.StringVal(t.Timeout.String()))
	}
	if t.Has("enabled_tools") {
		b.SetAttributeRaw("enabled_tools", tokensForStrings(t.EnabledTools))
	}
	if t.Has("disabled_tools") {
		b.SetAttributeRaw("disabled_tools", tokensForStrings(t.DisabledTools))
	}
	if t.Has("extra") {
		b.SetAttributeRaw("extra", hclwrite.TokensForValue(ctyValue(map[string]any(t.Extra))))
	}
}

// ctyValue turns a JSON-like value (provider.Extra's) into a cty value for
// hclwrite.
func ctyValue(v any) cty.Value {
	switch x := v.(type) {
	case string:
		return cty.StringVal(x)
	case bool:
		return cty.BoolVal(x)
	case int64:
		return cty.NumberIntVal(x)
	case float64:
		return cty.NumberFloatVal(x)
	case []any:
		if len(x) == 0 {
			return cty.EmptyTupleVal
		}
		out := make([]cty.Value, len(x))
		for i, e := range x {
			out[i] = ctyValue(e)
		}
		return cty.TupleVal(out)
	case map[string]any:
		if len(x) == 0 {
			return cty.EmptyObjectVal
		}
		out := make(map[string]cty.Value, len(x))
		for k, e := range x {
			out[k] = ctyValue(e)
		}
		return cty.ObjectVal(out)
	}
	return cty.NullVal(cty.DynamicPseudoType)
}
