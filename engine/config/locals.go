package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// decodeLocals evaluates every locals block. Locals may refer to variables
// and to each other in any order; they are evaluated once their references
// are, and a cycle is reported with the names involved.
func (l *loader) decodeLocals(blocks []*hcl.Block, vars map[string]cty.Value, facts cty.Value) map[string]cty.Value {
	attrs := map[string]*hcl.Attribute{}
	for _, b := range blocks {
		as, diags := b.Body.JustAttributes()
		l.diags = append(l.diags, diags...)
		for name, a := range as {
			if first, dup := attrs[name]; dup {
				l.diags = append(l.diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate local value",
					Detail:   fmt.Sprintf("A local value named %q was already defined at %s.", name, first.NameRange),
					Subject:  a.NameRange.Ptr(),
				})
				continue
			}
			attrs[name] = a
		}
	}

	vals := map[string]cty.Value{}
	pending := keysOf(attrs)
	for len(pending) > 0 {
		var next []string
		for _, name := range pending {
			if !l.localReady(attrs[name], attrs, vals) {
				next = append(next, name)
				continue
			}
			ctx := l.baseContext()
			ctx.Variables = map[string]cty.Value{"var": objectOf(vars), "local": objectOf(vals), "machine": facts}
			v, diags := attrs[name].Expr.Value(ctx)
			l.diags = append(l.diags, diags...)
			if diags.HasErrors() {
				v = cty.DynamicVal
			}
			vals[name] = v
		}
		if len(next) == len(pending) {
			sort.Strings(next)
			for _, name := range next {
				l.diags = append(l.diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Cycle in local values",
					Detail:   fmt.Sprintf("local.%s depends, directly or not, on itself (among local.%s).", name, strings.Join(next, ", local.")),
					Subject:  attrs[name].NameRange.Ptr(),
				})
				vals[name] = cty.DynamicVal
			}
			break
		}
		pending = next
	}
	return vals
}

// localReady reports whether every local that a refers to has a value, or
// does not exist (the evaluation then reports it).
func (l *loader) localReady(a *hcl.Attribute, all map[string]*hcl.Attribute, done map[string]cty.Value) bool {
	for _, t := range a.Expr.Variables() {
		if t.RootName() != "local" || len(t) < 2 {
			continue
		}
		step, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			continue
		}
		if _, exists := all[step.Name]; !exists {
			continue
		}
		if _, ok := done[step.Name]; !ok {
			return false
		}
	}
	return true
}

func objectOf(m map[string]cty.Value) cty.Value {
	if len(m) == 0 {
		return cty.EmptyObjectVal
	}
	return cty.ObjectVal(m)
}
