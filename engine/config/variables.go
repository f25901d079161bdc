package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/chronicle-dev/chronicle/engine/machine"
	"github.com/chronicle-dev/chronicle/engine/secret"
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
		v.Shown = shown(val, v.Sensitive)
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
	l.checkValueFiles(d, seen)
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

// variableValue gives a variable its value. Precedence, later wins: the
// default, the machine file, CHRONICLE_VAR_<name>, the --var-file files in
// command-line order, --var.
func (l *loader) variableValue(d *decoder, name string, ty cty.Type, def *hcl.Attribute, v *Variable) (cty.Value, bool) {
	if raw, ok := l.opts.Vars[name]; ok {
		return l.fromText(d, v, ty, raw, "--var")
	}
	for i := len(l.opts.VarFiles) - 1; i >= 0; i-- {
		if a := fileValue(l.opts.VarFiles[i], name); a != nil {
			return l.fromFile(d, v, ty, a, "--var-file", false)
		}
	}
	if raw, ok := l.opts.Getenv(VarEnvPrefix + name); ok {
		return l.fromText(d, v, ty, raw, "env "+VarEnvPrefix+name)
	}
	if a := fileValue(l.opts.MachineFile, name); a != nil {
		return l.fromFile(d, v, ty, a, "machine file", true)
	}
	if def == nil {
		d.errorf(v.DeclRange, "No value for required variable",
			"The variable %q has no default. Set it in the machine file (chronicle machine --set %s=VALUE), with --var %s=VALUE or with the environment variable %s%s.", name, name, name, VarEnvPrefix, name)
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

// fromText reads a value given on the command line or in the environment.
func (l *loader) fromText(d *decoder, v *Variable, ty cty.Type, raw, source string) (cty.Value, bool) {
	val, err := parseVarValue(raw, ty)
	if err != nil {
		d.diags = append(d.diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid value for variable",
			Detail:   fmt.Sprintf("The value of %q from %s is not valid: %s.", v.Name, source, err),
			Subject:  v.DeclRange.Ptr(),
		})
		return cty.NilVal, false
	}
	v.Source = source
	return val, true
}

// fromFile evaluates a value of a machine file or a --var-file: literals
// and secret() (tfvars syntax). In the machine file, a variable that is
// sensitive or whose name says it is a secret must be a secret() reference.
func (l *loader) fromFile(d *decoder, v *Variable, ty cty.Type, a *hcl.Attribute, kind string, refOnly bool) (cty.Value, bool) {
	source := fmt.Sprintf("%s %s:%d", kind, a.Range.Filename, a.Range.Start.Line)
	val, diags := a.Expr.Value(l.baseContext())
	d.diags = append(d.diags, diags...)
	if diags.HasErrors() {
		return cty.NilVal, false
	}
	out, err := convert.Convert(val, ty)
	if err != nil {
		d.errorf(a.Expr.Range(), "Invalid value for variable", "The value of %q from the %s does not match its type: %s.", v.Name, kind, err)
		return cty.NilVal, false
	}
	if refOnly && (v.Sensitive || secret.LooksSecret(v.Name)) && hasPlainText(out) {
		d.errorf(a.Expr.Range(), "Secret in plain text",
			"The machine file holds %q in plain text. A secret in it must be a reference: %s = secret(\"env:NAME\") or secret(\"file:PATH\").", v.Name, v.Name)
		return cty.NilVal, false
	}
	v.Source = source
	return out, true
}

// hasPlainText reports whether some non-empty string inside v carries no
// secret reference.
func hasPlainText(v cty.Value) bool {
	for _, s := range leafStrings(v) {
		if s != "" && !secret.ContainsSentinel(s) {
			return true
		}
	}
	return false
}

// fileValue returns f's attribute for the variable name, or nil.
func fileValue(f *machine.File, name string) *hcl.Attribute {
	if f == nil {
		return nil
	}
	for _, a := range f.Values {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// checkValueFiles warns about a value in the machine file or a --var-file
// for a variable nobody declared (another repository may declare it), and
// refuses a machine block in a --var-file.
func (l *loader) checkValueFiles(d *decoder, declared map[string]hcl.Range) {
	files := append([]*machine.File{l.opts.MachineFile}, l.opts.VarFiles...)
	for i, f := range files {
		if f == nil {
			continue
		}
		if i > 0 && f.MachineBlock != nil {
			d.errorf(f.MachineBlock.DefRange, "Machine block in a variables file",
				"A machine block belongs in the machine file (%s), not in a --var-file.", "~/.chronicle/machine.hcl")
		}
		for _, a := range f.Values {
			if _, ok := declared[a.Name]; ok {
				continue
			}
			d.diags = append(d.diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Value for undeclared variable",
				Detail: fmt.Sprintf("%s:%d sets %q, but the configuration declares no variable %q; the value is not used.%s",
					a.Range.Filename, a.Range.Start.Line, a.Name, a.Name, didYouMean(a.Name, keysOf(declared))),
				Subject: a.NameRange.Ptr(),
			})
		}
	}
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

// shown renders a variable's value as HCL for chronicle machine, with each
// secret reference written as secret("…"), never resolved.
func shown(v cty.Value, sensitive bool) string {
	if sensitive {
		return "(sensitive)"
	}
	if !v.IsWhollyKnown() {
		return "(known when planned)"
	}
	var refs []string
	placeholder := func(i int) string { return fmt.Sprintf("chronicle-secret-placeholder-%d", i) }
	v, _ = cty.Transform(v, func(_ cty.Path, e cty.Value) (cty.Value, error) {
		if e.IsKnown() && !e.IsNull() && e.Type() == cty.String && secret.ContainsSentinel(e.AsString()) {
			sv, err := secret.Decode(e.AsString())
			if err != nil {
				return e, nil
			}
			refs = append(refs, sv.HCL())
			return cty.StringVal(placeholder(len(refs) - 1)), nil
		}
		return e, nil
	})
	out := string(hclwrite.TokensForValue(v).Bytes())
	for i, r := range refs {
		out = strings.ReplaceAll(out, `"`+placeholder(i)+`"`, r)
	}
	return out
}
