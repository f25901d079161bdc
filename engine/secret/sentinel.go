package secret

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/unicode/norm"
)

// While HCL is evaluated, a reference travels inside ordinary cty strings as
// a sentinel: NUL, a marker, the reference, NUL. Template interpolation keeps
// it intact ("Bearer ${secret("env:T")}" concatenates), and Decode splits a
// finished string back into a Value. NUL cannot be typed into an HCL string
// by accident, and any function that receives a sentinel refuses it.
const (
	sentinelOpen  = "\x00chronicle-secret:"
	sentinelClose = "\x00"
)

// Sentinel returns the in-evaluation form of r.
func Sentinel(r Ref) string { return sentinelOpen + r.String() + sentinelClose }

// ContainsSentinel reports whether s carries a reference.
func ContainsSentinel(s string) bool { return strings.Contains(s, sentinelOpen) }

// Decode turns an evaluated string into a Value, splitting out references.
func Decode(s string) (Value, error) {
	var v Value
	for {
		i := strings.Index(s, sentinelOpen)
		if i < 0 {
			return v.appendPart(Part{Text: s}), nil
		}
		v = v.appendPart(Part{Text: s[:i]})
		rest := s[i+len(sentinelOpen):]
		j := strings.Index(rest, sentinelClose)
		if j < 0 {
			return Value{}, fmt.Errorf("a secret reference was cut in half")
		}
		r, err := ParseRef(rest[:j])
		if err != nil {
			return Value{}, err
		}
		v = v.appendPart(Part{Ref: &r})
		s = rest[j+len(sentinelClose):]
	}
}

// Function is the HCL function secret(ref): it checks the reference and
// returns its sentinel, never the secret.
var Function = function.New(&function.Spec{
	Description: `Refers to a secret without reading it: secret("env:NAME") or secret("file:PATH").`,
	Params: []function.Parameter{{
		Name: "ref",
		Type: cty.String,
	}},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		s := args[0].AsString()
		if ContainsSentinel(s) {
			return cty.NilVal, function.NewArgErrorf(0, "secret() cannot take another secret as its argument")
		}
		r, err := ParseRef(s)
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		return cty.StringVal(Sentinel(r)), nil
	},
})

// ParseTemplate parses the text form written by Value.HCL, such as
// `Bearer ${secret("env:T")}`, back into a Value. Only literal text and
// secret() calls are allowed in it.
func ParseTemplate(s string) (Value, error) {
	if !strings.Contains(s, "${") && !strings.Contains(s, "%{") {
		// Only literal text (the state holds thousands of such values):
		// what the template parser would make of it, without it — HCL
		// normalizes text to NFC.
		return Decode(norm.NFC.String(s))
	}
	expr, diags := hclsyntax.ParseTemplate([]byte(s), "value", hcl.InitialPos)
	if diags.HasErrors() {
		return Value{}, fmt.Errorf("parsing %q: %s", s, diags.Error())
	}
	ctx := &hcl.EvalContext{Functions: map[string]function.Function{"secret": Function}}
	out, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return Value{}, fmt.Errorf("parsing %q: %s", s, diags.Error())
	}
	if out.IsNull() || !out.IsKnown() || out.Type() != cty.String {
		return Value{}, fmt.Errorf("parsing %q: not a string", s)
	}
	return Decode(out.AsString())
}
