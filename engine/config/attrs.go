package config

import (
	"fmt"
	"sort"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// A decoder evaluates the attributes of one block and collects diagnostics,
// each pointing at the attribute it concerns.
type decoder struct {
	ctx   *hcl.EvalContext
	home  string
	dir   string
	diags hcl.Diagnostics
	// marks are the marks of the attribute value last decoded, by path.
	marks []cty.PathValueMarks
	// bare names the block being decoded when it has no for_each
	// (service "github"), for the message about each used there; "" for
	// an instance of a for_each.
	bare string
}

func (d *decoder) errorf(rng hcl.Range, summary, detail string, args ...any) {
	d.diags = append(d.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(detail, args...),
		Subject:  rng.Ptr(),
	})
}

// value evaluates attr and converts it to ty. ok is false when the attribute
// is absent, null, or did not evaluate (a diagnostic says why).
func (d *decoder) value(attr *hcl.Attribute, ty cty.Type, typeName string) (cty.Value, bool) {
	if attr == nil {
		return cty.NilVal, false
	}
	v, diags := attr.Expr.Value(d.ctx)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	v, ok := d.refuseSensitive(attr, v)
	if !ok || v.IsNull() {
		return cty.NilVal, false
	}
	if !v.IsWhollyKnown() {
		d.errorf(attr.Expr.Range(), "Unknown value", "The value of %q cannot be known when the configuration is loaded.", attr.Name)
		return cty.NilVal, false
	}
	out, err := convertValue(v, ty)
	if err != nil {
		d.errorf(attr.Expr.Range(), "Incorrect attribute value type",
			"Inappropriate value for attribute %q: %s required.", attr.Name, typeName)
		return cty.NilVal, false
	}
	return out, true
}

// secretValue decodes a string that may contain secret references.
func (d *decoder) secretValue(attr *hcl.Attribute, s string) (secret.Value, bool) {
	v, err := secret.Decode(s)
	if err != nil {
		d.errorf(attr.Expr.Range(), "Invalid secret reference", "%s", err)
		return secret.Value{}, false
	}
	return v, true
}

// plain checks that s carries no secret reference: some attributes are
// written into places where a reference cannot be kept.
func (d *decoder) plain(attr *hcl.Attribute, s string) (string, bool) {
	if secret.ContainsSentinel(s) {
		d.errorf(attr.Expr.Range(), "Secret not allowed here",
			"The attribute %q cannot hold a secret() reference. Secrets belong in env, headers, args, url, token, api_key and auth.", attr.Name)
		return "", false
	}
	return s, true
}

func (d *decoder) str(attr *hcl.Attribute) (string, bool) {
	v, ok := d.value(attr, cty.String, "string")
	if !ok {
		return "", false
	}
	return d.plain(attr, v.AsString())
}

func (d *decoder) secretStr(attr *hcl.Attribute) (secret.Value, bool) {
	v, ok := d.value(attr, cty.String, "string")
	if !ok {
		return secret.Value{}, false
	}
	return d.secretValue(attr, v.AsString())
}

func (d *decoder) boolean(attr *hcl.Attribute) (bool, bool) {
	v, ok := d.value(attr, cty.Bool, "bool")
	if !ok {
		return false, false
	}
	return v.True(), true
}

// integer decodes a whole number.
func (d *decoder) integer(attr *hcl.Attribute) (int, bool) {
	v, ok := d.value(attr, cty.Number, "number")
	if !ok {
		return 0, false
	}
	bf := v.AsBigFloat()
	n, acc := bf.Int64()
	if !bf.IsInt() || acc != 0 || n != int64(int(n)) {
		d.errorf(attr.Expr.Range(), "Invalid number", "The value of %q must be a whole number.", attr.Name)
		return 0, false
	}
	return int(n), true
}

func (d *decoder) strList(attr *hcl.Attribute) ([]string, bool) {
	v, ok := d.value(attr, cty.List(cty.String), "list of string")
	if !ok {
		return nil, false
	}
	var out []string
	for _, e := range v.AsValueSlice() {
		if e.IsNull() {
			d.errorf(attr.Expr.Range(), "Null list element", "The list %q must not contain null.", attr.Name)
			return nil, false
		}
		s, ok := d.plain(attr, e.AsString())
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func (d *decoder) secretList(attr *hcl.Attribute) ([]secret.Value, bool) {
	v, ok := d.value(attr, cty.List(cty.String), "list of string")
	if !ok {
		return nil, false
	}
	var out []secret.Value
	plain := true
	for i, e := range v.AsValueSlice() {
		if e.IsNull() {
			d.errorf(attr.Expr.Range(), "Null list element", "The list %q must not contain null.", attr.Name)
			return nil, false
		}
		s, ok := d.secretValue(attr, e.AsString())
		if !ok {
			return nil, false
		}
		// Every argument is checked, so that each one refused is reported.
		plain = d.plainArg(attr, i, out, s) && plain
		out = append(out, s)
	}
	if !plain {
		return nil, false
	}
	return out, true
}

func (d *decoder) secretMap(attr *hcl.Attribute) (map[string]secret.Value, bool) {
	v, ok := d.value(attr, cty.Map(cty.String), "map of string")
	if !ok {
		return nil, false
	}
	out := map[string]secret.Value{}
	m := v.AsValueMap()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if secret.ContainsSentinel(k) {
			d.errorf(attr.Expr.Range(), "Secret not allowed here", "A key of %q cannot be a secret() reference.", attr.Name)
			return nil, false
		}
		e := m[k]
		if e.IsNull() {
			d.errorf(attr.Expr.Range(), "Null map value", "The value of %q in %q must not be null.", k, attr.Name)
			return nil, false
		}
		s, ok := d.secretValue(attr, e.AsString())
		if !ok {
			return nil, false
		}
		if secretKey(attr.Name, k) && literal(s) && !d.plainSecret(attr, cty.IndexStringPath(k), fmt.Sprintf("The value of %s %q", attr.Name, k)) {
			return nil, false
		}
		if tokenShaped(s) && !d.plainSecret(attr, cty.IndexStringPath(k), fmt.Sprintf("The value of %s %q is shaped like a credential and", attr.Name, k)) {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

// path decodes a path and makes it absolute (~ and relative to the config dir).
func (d *decoder) path(attr *hcl.Attribute) (string, bool) {
	s, ok := d.str(attr)
	if !ok {
		return "", false
	}
	if s == "" {
		d.errorf(attr.Expr.Range(), "Empty path", "The attribute %q must not be empty.", attr.Name)
		return "", false
	}
	return ExpandPath(d.home, d.dir, s), true
}

func (d *decoder) duration(attr *hcl.Attribute) (time.Duration, bool) {
	s, ok := d.str(attr)
	if !ok {
		return 0, false
	}
	dur, err := time.ParseDuration(s)
	if err != nil || dur <= 0 {
		d.errorf(attr.Expr.Range(), "Invalid duration", "%q is not a positive duration: write it like \"30s\", \"2m\" or \"1m30s\".", s)
		return 0, false
	}
	return dur, true
}

func (d *decoder) size(attr *hcl.Attribute) (int64, bool) {
	s, ok := d.str(attr)
	if !ok {
		return 0, false
	}
	n, err := humanize.ParseBytes(s)
	if err != nil || n == 0 || n > 1<<40 {
		d.errorf(attr.Expr.Range(), "Invalid size", "%q is not a size between 1 byte and 1 TiB: write it like \"50MB\" or \"200MiB\".", s)
		return 0, false
	}
	return int64(n), true
}

// oneOf decodes a string that must be one of choices.
func (d *decoder) oneOf(attr *hcl.Attribute, choices ...string) (string, bool) {
	s, ok := d.str(attr)
	if !ok {
		return "", false
	}
	for _, c := range choices {
		if s == c {
			return s, true
		}
	}
	d.errorf(attr.Expr.Range(), "Invalid value", "%q is not one of %q.%s", s, choices, didYouMean(s, choices))
	return "", false
}

// literalSecret refuses a literal value for an attribute that is a secret
// (a token, an API key, git auth): see plainSecret.
func (d *decoder) literalSecret(attr *hcl.Attribute, v secret.Value) {
	if attr != nil && literal(v) {
		d.plainSecret(attr, nil, fmt.Sprintf("The attribute %q", attr.Name))
	}
}

// literal reports whether v is text without any secret reference.
func literal(v secret.Value) bool { return !v.IsZero() && !v.HasRefs() }

// convertValue is convert.Convert with a shortcut for the commonest case,
// a tuple of strings wanted as a list of strings: convert unifies the
// element types by sorting them, which at a link's thousands of names
// is most of the configuration's decoding.
func convertValue(v cty.Value, ty cty.Type) (cty.Value, error) {
	if ty.Equals(cty.List(cty.String)) && v.Type().IsTupleType() && !v.ContainsMarked() {
		elems := v.Type().TupleElementTypes()
		strs := len(elems) > 0
		for _, t := range elems {
			strs = strs && t.Equals(cty.String)
		}
		if strs {
			return cty.ListVal(v.AsValueSlice()), nil
		}
	}
	return convert.Convert(v, ty)
}
