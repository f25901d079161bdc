package secret

import (
	"encoding/json"
	"strings"
)

// A Part is one piece of a Value: literal text, or a reference when Ref is set.
type Part struct {
	Text string
	Ref  *Ref
}

// A Value is a string that may contain secret references, such as
// "Bearer ${secret("env:TOKEN")}". The zero Value is the empty string.
//
// A Value never holds a secret's content: its text form, its JSON form and
// its HCL form all show the reference, not what the reference points to.
type Value struct {
	parts []Part
}

// Literal returns a Value with no references.
func Literal(s string) Value {
	if s == "" {
		return Value{}
	}
	return Value{parts: []Part{{Text: s}}}
}

// FromRef returns a Value that is exactly one reference.
func FromRef(r Ref) Value {
	return Value{parts: []Part{{Ref: &r}}}
}

// Concat joins values in order.
func Concat(vs ...Value) Value {
	var out Value
	for _, v := range vs {
		for _, p := range v.parts {
			out = out.appendPart(p)
		}
	}
	return out
}

func (v Value) appendPart(p Part) Value {
	if p.Ref == nil && p.Text == "" {
		return v
	}
	parts := append([]Part(nil), v.parts...)
	if p.Ref == nil && len(parts) > 0 && parts[len(parts)-1].Ref == nil {
		parts[len(parts)-1].Text += p.Text
		return Value{parts: parts}
	}
	return Value{parts: append(parts, p)}
}

// Parts returns the value's pieces in order.
func (v Value) Parts() []Part { return append([]Part(nil), v.parts...) }

// IsZero reports whether the value is the empty string.
func (v Value) IsZero() bool { return len(v.parts) == 0 }

// HasRefs reports whether the value contains at least one reference.
func (v Value) HasRefs() bool {
	for _, p := range v.parts {
		if p.Ref != nil {
			return true
		}
	}
	return false
}

// Refs returns the references in the value, in order.
func (v Value) Refs() []Ref {
	var refs []Ref
	for _, p := range v.parts {
		if p.Ref != nil {
			refs = append(refs, *p.Ref)
		}
	}
	return refs
}

// OnlyRef returns the reference when the whole value is exactly one reference.
func (v Value) OnlyRef() (Ref, bool) {
	if len(v.parts) == 1 && v.parts[0].Ref != nil {
		return *v.parts[0].Ref, true
	}
	return Ref{}, false
}

// Literal returns the value's text when it has no references.
func (v Value) Literal() (string, bool) {
	if v.HasRefs() {
		return "", false
	}
	if len(v.parts) == 0 {
		return "", true
	}
	return v.parts[0].Text, true
}

// Render writes the value with each reference replaced by ref(r); literal
// text is passed through escape. Providers use it to write a tool's own
// reference syntax, such as ${env:NAME}.
func (v Value) Render(escape func(string) string, ref func(Ref) (string, error)) (string, error) {
	var b strings.Builder
	for _, p := range v.parts {
		if p.Ref == nil {
			b.WriteString(escape(p.Text))
			continue
		}
		s, err := ref(*p.Ref)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// HCL returns the value as the inside of an HCL quoted string: literal text
// with "${" and "%{" escaped, and references as ${secret("kind:name")}.
func (v Value) HCL() string {
	s, _ := v.Render(escapeTemplate, func(r Ref) (string, error) {
		return "${" + r.HCL() + "}", nil
	})
	return s
}

// String returns the same text as HCL, so that printing a Value can never
// show a secret's content.
func (v Value) String() string { return v.HCL() }

// Equal reports whether two values have the same parts: references are
// compared by reference, never by content.
func (v Value) Equal(o Value) bool {
	if len(v.parts) != len(o.parts) {
		return false
	}
	for i, p := range v.parts {
		q := o.parts[i]
		if p.Text != q.Text || (p.Ref == nil) != (q.Ref == nil) {
			return false
		}
		if p.Ref != nil && *p.Ref != *q.Ref {
			return false
		}
	}
	return true
}

func escapeTemplate(s string) string {
	s = strings.ReplaceAll(s, "${", "$${")
	return strings.ReplaceAll(s, "%{", "%%{")
}

// MarshalJSON encodes the value as its HCL template text, so a state or plan
// file keeps the reference and never the secret.
func (v Value) MarshalJSON() ([]byte, error) { return json.Marshal(v.HCL()) }

// UnmarshalJSON decodes the form written by MarshalJSON.
func (v *Value) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	parsed, err := ParseTemplate(s)
	if err != nil {
		return err
	}
	*v = parsed
	return nil
}
