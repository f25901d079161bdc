package config

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/chronicle-dev/chronicle/engine/mask"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// A sensitiveMark marks a value that must never be stored in plain text: a
// variable declared sensitive, or env() of a secret-looking name. What
// names its origin for the diagnostic.
type sensitiveMark struct{ What string }

// An envMark marks a value read by env(): under a secret-looking key it is
// refused like a sensitive value.
type envMark struct{ Name string }

// A plainMark marks a value passed through nonsensitive(): plain text the
// author means, even under a secret-looking key.
type plainMark struct{}

// nonsensitiveFunc removes the sensitive marks of its argument: the escape
// hatch for a value that only looks secret, taken deliberately.
var nonsensitiveFunc = function.New(&function.Spec{
	Description: "Returns its argument without the sensitive mark: use it for a value that only looks secret.",
	Params:      []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowMarked: true, AllowNull: true}},
	Type:        func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, _ := args[0].UnmarkDeep()
		return v.Mark(plainMark{}), nil
	},
})

// refuseSensitive reports a sensitive value in attr as an error pointing at
// its expression, and returns the value without marks. Every attribute the
// configuration decodes ends up in the state, a plan file or a tool's file,
// so a sensitive value is refused in all of them.
func (d *decoder) refuseSensitive(attr *hcl.Attribute, v cty.Value) (cty.Value, bool) {
	d.marks = nil
	if !v.ContainsMarked() {
		return v, true
	}
	plain, marks := v.UnmarkDeepWithPaths()
	d.marks = marks
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

// markAt returns a mark of type M on the value at path (or on a value
// containing it) of the attribute last decoded.
func markAt[M any](d *decoder, path cty.Path) (M, bool) {
	for _, pm := range d.marks {
		if len(pm.Path) > len(path) || !samePath(pm.Path, path[:len(pm.Path)]) {
			continue
		}
		for m := range pm.Marks {
			if v, ok := m.(M); ok {
				return v, true
			}
		}
	}
	var zero M
	return zero, false
}

// secretKey reports whether a key of an env or headers map says its value
// is a secret: secret.LooksSecret, and for headers also Authorization.
func secretKey(attr, key string) bool {
	if attr == "headers" && (strings.EqualFold(key, "Authorization") || strings.EqualFold(key, "Proxy-Authorization")) {
		return true
	}
	return secret.LooksSecret(key)
}

// plainSecret reports a literal where a secret belongs — a value under a
// secret-looking key, the hub token, an API key — as an error: chronicle
// would store it in plain text in the state and the tools' files. A value
// taken from env() there is refused the same way. nonsensitive(...) marks
// a plain value the author means.
func (d *decoder) plainSecret(attr *hcl.Attribute, path cty.Path, what string) bool {
	if _, ok := markAt[plainMark](d, path); ok {
		return true
	}
	suggest := `secret("env:NAME")`
	origin := "is written in plain text"
	if m, ok := markAt[envMark](d, path); ok {
		suggest = `secret("env:` + m.Name + `")`
		origin = "comes from env(\"" + m.Name + "\"), read into plain text"
	}
	d.errorf(attr.Expr.Range(), "Secret in plain text",
		"%s %s: chronicle would store it in plain text in the state, saved plans and the tools' files. Refer to it with %s, which chronicle resolves only in memory (or wrap it in nonsensitive(...) if it is not a secret).",
		what, origin, suggest)
	return false
}

// tokenShaped reports whether v is literal text that the masker would hide
// by its shape: a known token format (sk-…, ghp_…, a JWT), a long generated
// value, a URL's password or secret-looking query parameter.
func tokenShaped(v secret.Value) bool {
	lit, ok := v.Literal()
	return ok && lit != "" && mask.Value(lit) != lit
}

// plainArg refuses argument i of args, v, when it holds a secret in plain
// text: a token-shaped value, the value after a secret flag (--password
// hunter2), or a secret flag's inline value (--token=abc). before are the
// arguments decoded so far.
func (d *decoder) plainArg(attr *hcl.Attribute, i int, before []secret.Value, v secret.Value) bool {
	lit, ok := v.Literal()
	if !ok || lit == "" {
		return true
	}
	path := cty.IndexIntPath(i)
	if name, inline, has, ok := mask.SecretFlag(lit); ok && has && inline != "" {
		return d.plainSecret(attr, path, fmt.Sprintf("The value of --%s in %s", name, attr.Name))
	}
	if i > 0 {
		if prev, ok := before[i-1].Literal(); ok {
			if name := mask.ArgKey(prev); name != "" && !strings.HasPrefix(lit, "-") {
				return d.plainSecret(attr, path, fmt.Sprintf("The argument after %q in %s", prev, attr.Name))
			}
		}
	}
	if tokenShaped(v) {
		return d.plainSecret(attr, path, fmt.Sprintf("Argument %d of %s is shaped like a credential and", i+1, attr.Name))
	}
	return true
}

// urlCredentials reports whether a URL holds a credential in plain text: a
// password in its userinfo, or a secret-looking query parameter (token,
// access_token, api_key, …) with a literal value. References are fine.
func urlCredentials(v secret.Value) bool {
	const placeholder = "CHRONICLEREF"
	s, _ := v.Render(func(s string) string { return s }, func(secret.Ref) (string, error) { return placeholder, nil })
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	if p, ok := u.User.Password(); ok && u.User != nil && p != placeholder {
		return true
	}
	for name, values := range u.Query() {
		if !secret.LooksSecret(name) && !strings.EqualFold(name, "key") && !strings.EqualFold(name, "auth") {
			continue
		}
		for _, val := range values {
			if val != "" && val != placeholder {
				return true
			}
		}
	}
	return false
}

// samePath compares paths, taking an object attribute and a map key of the
// same name as the same step: a map attribute is written as an object.
func samePath(a, b cty.Path) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if stepKey(a[i]) != stepKey(b[i]) {
			return false
		}
	}
	return true
}

func stepKey(s cty.PathStep) string {
	switch s := s.(type) {
	case cty.GetAttrStep:
		return "." + s.Name
	case cty.IndexStep:
		if s.Key.Type() == cty.String {
			return "." + s.Key.AsString()
		}
		return "[" + s.Key.GoString() + "]"
	}
	return "?"
}
