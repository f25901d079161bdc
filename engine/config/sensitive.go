package config

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// A sensitiveMark marks a value that must never be stored in plain text: a
// variable declared sensitive, or env() of a secret-looking name. What
// names its origin for the diagnostic.
type sensitiveMark struct{ What string }

// nonsensitiveFunc removes the sensitive marks of its argument: the escape
// hatch for a value that only looks secret, taken deliberately.
var nonsensitiveFunc = function.New(&function.Spec{
	Description: "Returns its argument without the sensitive mark: use it for a value that only looks secret.",
	Params:      []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowMarked: true, AllowNull: true}},
	Type:        func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, _ := args[0].UnmarkDeep()
		return v, nil
	},
})

// refuseSensitive reports a sensitive value in attr as an error pointing at
// its expression, and returns the value without marks. Every attribute the
// configuration decodes ends up in the state, a plan file or a tool's file,
// so a sensitive value is refused in all of them.
func (d *decoder) refuseSensitive(attr *hcl.Attribute, v cty.Value) (cty.Value, bool) {
	if !v.ContainsMarked() {
		return v, true
	}
	plain, marks := v.UnmarkDeepWithPaths()
	var from []string
	seen := map[string]bool{}
	for _, pm := range marks {
		for m := range pm.Marks {
			if s, ok := m.(sensitiveMark); ok && !seen[s.What] {
				seen[s.What] = true
				from = append(from, s.What)
			}
		}
	}
	if len(from) == 0 {
		return plain, true
	}
	suggest := `secret("env:NAME")`
	if name, ok := strings.CutPrefix(from[0], `env("`); ok {
		suggest = `secret("env:` + strings.TrimSuffix(name, `")`) + `")`
	}
	d.errorf(attr.Expr.Range(), "Sensitive value would be stored in plain text",
		"The value of %q comes from %s, which is sensitive: chronicle would write it in plain text into the state, saved plans and the tools' files. Refer to it instead with %s, which chronicle resolves only in memory (or wrap it in nonsensitive(...) if it is not a secret).",
		attr.Name, strings.Join(from, " and "), suggest)
	return cty.NilVal, false
}
