package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// VarEnvPrefix prefixes environment variables that set input variables:
// CHRONICLE_VAR_work sets var.work.
const VarEnvPrefix = "CHRONICLE_VAR_"

var variableSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "type"}, {Name: "default"}, {Name: "description"}, {Name: "sensitive"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

var validationSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "condition", Required: true}, {Name: "error_message", Required: true},
	},
}

// decodeVariables decodes the variable blocks and gives each its value:
// --var first, then CHRONICLE_VAR_<name>, then the default. It returns the
// values for var.* in expressions.
func (l *loader) decodeVariables(blocks []*hcl.Block) map[string]cty.Value {
	vals := map[string]cty.Value{}
	seen := map[string]hcl.Range{}
	d := l.decoder(nil)
	for _, b := range blocks {
		name := b.Labels[0]
		if !hclsyntax.ValidIdentifier(name) {
			d.errorf(b.LabelRanges[0], "Invalid variable name", "%q is not a valid identifier: use letters, digits, underscores and hyphens, starting with a letter.", name)
			continue
		}
		if first, dup := seen[name]; dup {
			d.errorf(b.LabelRanges[0], "Duplicate variable", "A variable named %q was already declared at %s.", name, first)
			continue
		}
		seen[name] = b.DefRange
		content, diags := b.Body.Content(variableSchema)
		d.diags = append(d.diags, diags...)

		v := &Variable{Name: name, DeclRange: b.DefRange}
		ty := cty.DynamicPseudoType
		if a := content.Attributes["type"]; a != nil {
			t, diags := typeexpr.TypeConstraint(a.Expr)
			d.diags = append(d.diags, diags...)
			if !diags.HasErrors() {
				ty = t
			}
		}
		if s, ok := d.str(content.Attributes["description"]); ok {
			v.Description = s
		}
		if s, ok := d.boolean(content.Attributes["sensitive"]); ok {
			v.Sensitive = s
		}

		val, ok := l.variableValue(d, name, ty, content.Attributes["default"], v)
		if !ok {
			vals[name] = cty.DynamicVal
			continue
		}
		for _, vb := range content.Blocks {
			l.checkValidation(d, name, val, vb)
		}
		if v.Sensitive {
			l.cfg.Sensitive = append(l.cfg.Sensitive, leafStrings(val)...)
			// The mark follows the value through locals, functions and
			// templates: wherever it would be stored, decoding refuses it.
			val = val.Mark(sensitiveMark{"var." + name})
		}
		vals[name] = val
		l.cfg.Variables = append(l.cfg.Variables, v)
	}
	// A --var for a variable nobody declared is a mistake worth stopping for.
	var undeclared []string
	for name := range l.opts.Vars {
		if _, ok := seen[name]; !ok {
			undeclared = append(undeclared, name)
		}
	}
	sort.Strings(undeclared)
	for _, name := range undeclared {
		d.diags = append(d.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Value for undeclared variable",
			Detail:   fmt.Sprintf("A value for %q was given with --var, but no variable %q is declared.%s", name, name, didYouMean(name, keysOf(seen))),
		})
	}
	l.diags = append(l.diags, d.diags...)
	return vals
}

func (l *loader) variableValue(d *decoder, name string, ty cty.Type, def *hcl.Attribute, v *Variable) (cty.Value, bool) {
	raw, fromFlag := l.opts.Vars[name]
	source := "--var"
	if !fromFlag {
		raw, fromFlag = l.opts.Getenv(VarEnvPrefix + name)
		source = "env " + VarEnvPrefix + name
	}
	if fromFlag {
		val, err := parseVarValue(raw, ty)
		if err != nil {
			d.diags = append(d.diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid value for variable",
				Detail:   fmt.Sprintf("The value of %q from %s is not valid: %s.", name, source, err),
				Subject:  v.DeclRange.Ptr(),
			})
			return cty.NilVal, false
		}
		v.Source = source
		return val, true
	}
	if def == nil {
		d.errorf(v.DeclRange, "No value for required variable",
			"The variable %q has no default. Set it with --var %s=VALUE or the environment variable %s%s.", name, name, VarEnvPrefix, name)
		return cty.NilVal, false
	}
	val, diags := def.Expr.Value(nil)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	out, err := convert.Convert(val, ty)
	if err != nil {
		d.errorf(def.Expr.Range(), "Invalid default value for variable", "The default of %q does not match its type: %s.", name, err)
		return cty.NilVal, false
	}
	v.Source = "default"
	return out, true
}

// parseVarValue reads a value given on the command line or in the
// environment: taken as is for a string variable, else parsed as an HCL
// expression (["a", "b"], true, 3, { k = "v" }).
func parseVarValue(raw string, ty cty.Type) (cty.Value, error) {
	if ty == cty.String || ty == cty.DynamicPseudoType {
		return cty.StringVal(raw), nil
	}
	expr, diags := hclsyntax.ParseExpression([]byte(raw), "value", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("%s", strings.TrimSpace(diags.Error()))
	}
	val, diags := expr.Value(nil)
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("%s", strings.TrimSpace(diags.Error()))
	}
	out, err := convert.Convert(val, ty)
	if err != nil {
		return cty.NilVal, fmt.Errorf("%s required", ty.FriendlyName())
	}
	return out, nil
}

func (l *loader) checkValidation(d *decoder, name string, val cty.Value, b *hcl.Block) {
	content, diags := b.Body.Content(validationSchema)
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return
	}
	ctx := l.baseContext()
	ctx.Variables = map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{name: val})}
	sub := &decoder{ctx: ctx, home: d.home, dir: d.dir}
	cond, ok := sub.value(content.Attributes["condition"], cty.Bool, "bool")
	msg, _ := sub.str(content.Attributes["error_message"])
	d.diags = append(d.diags, sub.diags...)
	if ok && cond.False() {
		d.errorf(content.Attributes["condition"].Expr.Range(), "Invalid value for variable",
			"%s\n\nThis was checked by the validation rule of variable %q.", msg, name)
	}
}

// leafStrings returns every string inside v, for masking.
func leafStrings(v cty.Value) []string {
	var out []string
	_ = cty.Walk(v, func(_ cty.Path, e cty.Value) (bool, error) {
		if e.IsKnown() && !e.IsNull() && e.Type() == cty.String {
			out = append(out, e.AsString())
		}
		return true, nil
	})
	return out
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
