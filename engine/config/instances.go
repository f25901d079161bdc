package config

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/chronicle-dev/chronicle/engine/cores"
	"github.com/chronicle-dev/chronicle/engine/names"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

// metaSchema lists the meta-arguments, decoded before a block's own
// attributes: when (does the block exist on this machine), for_each (one
// instance per key) and name (an instance's name).
var metaSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "when"}, {Name: "for_each"}, {Name: "name"}},
}

// repeatable lists the block types for_each applies to.
var repeatable = map[string]bool{"service": true, "link": true}

// An instance is one block as its decoder sees it: a block without for_each
// is one instance named by its label; a block with for_each is one instance
// per key, whose expressions see each.key and each.value.
type instance struct {
	block *hcl.Block
	kind  string
	name  string
	// nameRange is where the name comes from: the label, the name
	// attribute, or the for_each.
	nameRange hcl.Range
	// from is the block and key the instance comes from
	// (service.github["acme"]); "" for a block without for_each.
	from string
	// body is the block's body without the meta-arguments.
	body hcl.Body
	// ctx evaluates the body: each.* is set for an instance of a for_each.
	ctx *hcl.EvalContext
	// present is the value of when: whether the block exists on this
	// machine.
	present bool
}

func (in instance) address() string { return in.kind + "." + in.name }

// A bareBlock names a block without for_each in messages about each.
func (in instance) bareBlock() string {
	if in.from != "" {
		return ""
	}
	return fmt.Sprintf("%s %q", in.kind, in.block.Labels[0])
}

// instances expands blocks of one kind (their labels checked by unique)
// into their instances, on every core, and drops the instances whose name
// another has taken. It records where each for_each instance comes from in
// the configuration.
func (l *loader) instances(ctx *hcl.EvalContext, kind string, blocks hcl.Blocks) []instance {
	expanded := make([][]instance, len(blocks))
	decoders := make([]*decoder, len(blocks))
	cores.Each(len(blocks), func(i int) {
		decoders[i] = l.decoder(ctx)
		expanded[i] = expand(decoders[i], kind, blocks[i])
	})
	var all []instance
	for i := range blocks {
		l.finish(decoders[i])
		all = append(all, expanded[i]...)
	}
	all = l.uniqueInstances(kind, all)
	for _, in := range all {
		if in.from != "" {
			if l.cfg.Instances == nil {
				l.cfg.Instances = map[string]string{}
			}
			l.cfg.Instances[in.address()] = in.from
		}
		if !in.present {
			l.absent[in.address()] = Absent{Kind: kind, Name: in.name, From: in.from, DeclRange: in.block.DefRange}
		}
	}
	return all
}

// expand decodes a block's meta-arguments with d and returns its
// instances.
func expand(d *decoder, kind string, b *hcl.Block) []instance {
	content, rest, diags := b.Body.PartialContent(metaSchema)
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	label := b.Labels[0]
	one := instance{block: b, kind: kind, name: label, nameRange: b.LabelRanges[0], body: rest, ctx: d.ctx}
	d.bare = one.bareBlock()
	forEach := a["for_each"]
	if forEach != nil && !repeatable[kind] {
		d.errorf(forEach.NameRange, "for_each not allowed here",
			"for_each applies to service and link blocks; a %s block is declared once (when = … can still leave it out on some machines).", kind)
		forEach = nil
	}
	if a["name"] != nil && forEach == nil {
		d.errorf(a["name"].NameRange, "name without for_each",
			"name applies to for_each instances; the block's label is its name (%q).", label)
	}
	if forEach == nil {
		one.present = d.when(a["when"])
		return []instance{one}
	}
	d.bare = ""
	keys, values, ok := d.forEach(forEach)
	if !ok {
		return nil
	}
	var out []instance
	for i, key := range keys {
		child := d.ctx.NewChild()
		child.Variables = map[string]cty.Value{"each": cty.ObjectVal(map[string]cty.Value{
			"key": cty.StringVal(key), "value": values[i],
		})}
		in := instance{
			block: b, kind: kind, name: label + "-" + key, nameRange: forEach.Expr.Range(),
			from: fmt.Sprintf("%s.%s[%q]", kind, label, key), body: rest, ctx: child,
		}
		ed := &decoder{ctx: child, home: d.home, dir: d.dir}
		if a["name"] != nil {
			name, ok := ed.str(a["name"])
			if !ok {
				if len(ed.diags) == 0 {
					ed.errorf(a["name"].Expr.Range(), "Null name", "name must be a string, such as \"%s-${each.key}\".", label)
				}
				d.diags = append(d.diags, ed.diags...)
				continue
			}
			in.name, in.nameRange = name, a["name"].Expr.Range()
		}
		in.present = ed.when(a["when"])
		d.diags = append(d.diags, ed.diags...)
		if !names.Valid(in.name) {
			how := fmt.Sprintf("The key %q makes the name %q (the label, a hyphen and the key)", key, in.name)
			if a["name"] != nil {
				how = fmt.Sprintf("Its name attribute gives %q", in.name)
			}
			d.errorf(in.nameRange, "Invalid instance name", "%s is an instance of %s %q. %s, but %s.", in.from, kind, label, how, names.Rule)
			continue
		}
		out = append(out, in)
	}
	return out
}

// when evaluates a block's when: whether the block exists on this machine.
// A block without when exists; so does one whose when is in error (the
// diagnostic says why), so that it is checked as any other.
func (d *decoder) when(attr *hcl.Attribute) bool {
	if attr == nil {
		return true
	}
	v, diags := attr.Expr.Value(d.ctx)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return true
	}
	v, _ = v.UnmarkDeep()
	switch {
	case !v.IsKnown():
		d.errorf(attr.Expr.Range(), "Unknown when", "The value of when cannot be known when the configuration is loaded; it may use machine.*, var.* and local.*.")
	case v.IsNull():
		d.errorf(attr.Expr.Range(), "Null when", "when must be true or false, not null.")
	case v.Type() != cty.Bool:
		d.errorf(attr.Expr.Range(), "Incorrect when", "when must be true or false; this is a %s. For example: when = contains(machine.tags, \"work\").", v.Type().FriendlyName())
	default:
		return v.True()
	}
	return true
}

// forEach evaluates a for_each: a map (or object) gives each key with its
// value; a set of strings, or a list of strings without duplicates, gives
// each string as both key and value. Values keep their marks (env() and
// nonsensitive), so that the attributes using each.value are checked as if
// the value were written there; a sensitive value is refused, since keys
// become names in the state.
func (d *decoder) forEach(attr *hcl.Attribute) (keys []string, values []cty.Value, ok bool) {
	rng := attr.Expr.Range()
	v, diags := attr.Expr.Value(d.ctx)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return nil, nil, false
	}
	if _, ok := d.refuseSensitive(attr, v); !ok {
		return nil, nil, false
	}
	v, marks := v.Unmark()
	switch {
	case v.IsNull():
		d.errorf(rng, "Null for_each", "for_each takes a map, or a set of strings; this is null.")
		return nil, nil, false
	case !v.IsWhollyKnown():
		d.errorf(rng, "Unknown for_each", "The value of for_each cannot be known when the configuration is loaded; it may use machine.*, var.* and local.*.")
		return nil, nil, false
	}
	ty := v.Type()
	switch {
	case ty.IsMapType() || ty.IsObjectType():
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			keys = append(keys, k.AsString())
			values = append(values, e.WithMarks(marks))
		}
	case ty.IsSetType() || ty.IsListType() || ty.IsTupleType():
		seen := map[string]bool{}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			plain, own := e.Unmark()
			if plain.IsNull() {
				d.errorf(rng, "Null in for_each", "The elements of for_each become instance keys; they must not be null.")
				return nil, nil, false
			}
			s, err := convert.Convert(plain, cty.String)
			if err != nil {
				d.errorf(rng, "Incorrect for_each", "for_each takes a map, or a set of strings; an element here is a %s.", plain.Type().FriendlyName())
				return nil, nil, false
			}
			key := s.AsString()
			if seen[key] {
				d.errorf(rng, "Duplicate key in for_each", "%q is in the list more than once, and each element is the key of one instance. Remove the duplicate (toset(…) drops duplicates).", key)
				return nil, nil, false
			}
			seen[key] = true
			keys = append(keys, key)
			values = append(values, s.WithMarks(own).WithMarks(marks))
		}
	default:
		d.errorf(rng, "Incorrect for_each", "for_each takes a map, or a set of strings; this is a %s.", ty.FriendlyName())
		return nil, nil, false
	}
	for _, k := range keys {
		if secret.ContainsSentinel(k) {
			d.errorf(rng, "Secret not allowed here", "A key of for_each names an instance: it cannot be a secret() reference (a value may be).")
			return nil, nil, false
		}
	}
	return keys, values, true
}

// uniqueInstances drops the instances whose name another instance of the
// kind has, reporting each at its for_each or name. Blocks without for_each
// come first: a label is the name its author wrote (unique has checked the
// labels).
func (l *loader) uniqueInstances(kind string, all []instance) []instance {
	taken := map[string]instance{}
	for _, in := range all {
		if in.from == "" {
			taken[in.name] = in
		}
	}
	out := make([]instance, 0, len(all))
	for _, in := range all {
		if in.from != "" {
			if first, dup := taken[in.name]; dup {
				what := fmt.Sprintf("the %s block at %s", kind, first.block.DefRange)
				if first.from != "" {
					what = first.from
				}
				l.diags = append(l.diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Duplicate %s name %q", kind, in.name),
					Detail: fmt.Sprintf("%s is named %q, as is %s. Each %s name must be unique: give the instances other names (name = \"…\", with each.key).",
						in.from, in.name, what, kind),
					Subject: in.nameRange.Ptr(),
				})
				continue
			}
			taken[in.name] = in
		}
		out = append(out, in)
	}
	return out
}

// eachOutside rewrites HCL's "Unknown variable" about each, in a block
// without for_each (block names it), into one that says what each is.
func eachOutside(diags hcl.Diagnostics, block string) {
	for _, diag := range diags {
		if diag.Summary == "Unknown variable" && strings.HasPrefix(diag.Detail, `There is no variable named "each".`) {
			diag.Summary = "each outside for_each"
			diag.Detail = fmt.Sprintf("each.key and each.value exist in a service or link block with for_each; %s has none. "+
				"Did you mean to add for_each = … (a map, or a set of strings) to it? A value the same for every instance belongs in var.* or local.*.", block)
		}
	}
}
