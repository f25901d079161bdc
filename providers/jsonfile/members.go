package jsonfile

import (
	"fmt"
	"slices"

	"github.com/tailscale/hujson"
)

// The three ways an edit changes an object's members, on the parsed
// document: hujson keeps every comment and blank as the "extra" before or
// after a value, so moving extras exactly as the layout rules of the
// package comment say, then packing the document once, changes no other
// byte.

// removeMembers deletes the members of o whose indices are in gone, each
// with its own line (or, inline, the blanks before it) and the comma that
// separated it. What precedes a removed member's line — comments — stays,
// before whatever follows. An object left with nothing but blanks inside
// becomes "{}".
func removeMembers(o *hujson.Object, gone map[int]bool) {
	last := len(o.Members) - 1
	trailing := last >= 0 && o.Members[last].Value.AfterExtra != nil
	kept := o.Members[:0:0]
	var carry []byte // the comments of removed members, for the next member
	for i, m := range o.Members {
		if gone[i] {
			before := slices.Concat(carry, m.Name.BeforeExtra)
			carry = before[:lineTail(before)]
			continue
		}
		if len(carry) > 0 {
			m.Name.BeforeExtra = slices.Concat(carry, m.Name.BeforeExtra)
			carry = nil
		}
		kept = append(kept, m)
	}
	o.Members = kept
	switch {
	case len(kept) == 0:
		o.AfterExtra = slices.Concat(carry, o.AfterExtra)
		if isSpace(o.AfterExtra) {
			o.AfterExtra = nil
		}
	case gone[last] && trailing:
		// The comma after the new last member is now the trailing one.
		if end := &kept[len(kept)-1].Value; end.AfterExtra == nil {
			end.AfterExtra = []byte{}
		}
		o.AfterExtra = slices.Concat(carry, o.AfterExtra)
	case gone[last]:
		// The comma after the new last member goes; what stood before it
		// stays, before the closing brace.
		end := &kept[len(kept)-1].Value
		o.AfterExtra = slices.Concat(end.AfterExtra, carry, o.AfterExtra)
		end.AfterExtra = nil
	}
}

// appendMember adds the member name: value (standard JSON) after the last
// member of obj, at that member's indentation, or, in an empty object, one
// unit deeper than the line holding its brace. Comments before the closing brace stay
// before the new member; a trailing comma stays trailing.
func (l layout) appendMember(obj *hujson.Value, name string, value []byte) error {
	o := obj.Value.(*hujson.Object)
	p := lastNonSpace(o.AfterExtra)
	comments, rest := o.AfterExtra[:p:p], o.AfterExtra[p:]
	var before []byte
	var formatted string
	var after hujson.Extra
	if len(o.Members) == 0 {
		ind := l.lineIndent(obj.StartOffset)
		before = slices.Concat(comments, []byte(l.nl+ind+l.unit))
		formatted = l.indent(value, ind+l.unit)
		if p == 0 {
			rest = []byte(l.nl + ind)
		}
	} else {
		last := o.Members[len(o.Members)-1]
		if ind, own := ownLine(last.Name); own {
			before = slices.Concat(comments, []byte(l.nl+ind))
			formatted = l.indent(value, ind)
		} else {
			before = slices.Concat(comments, []byte(inlineSep(last.Name)))
			formatted = compact(value)
		}
		if last.Value.AfterExtra != nil {
			after = []byte{} // keep the trailing comma, now after the new member
		}
	}
	v, err := hujson.Parse([]byte(formatted))
	if err != nil {
		return fmt.Errorf("the new value of %q does not parse: %w", name, err)
	}
	o.Members = append(o.Members, hujson.ObjectMember{
		Name:  hujson.Value{BeforeExtra: before, Value: hujson.Literal(quote(name))},
		Value: hujson.Value{BeforeExtra: []byte(" "), Value: v.Value, AfterExtra: after},
	})
	o.AfterExtra = rest
	return nil
}

// replaceValue sets the value of member m, keeping its place and the
// comments around it: indented like its name when the name starts a line,
// else on one line.
func (l layout) replaceValue(m *hujson.ObjectMember, value []byte) error {
	formatted := compact(value)
	if ind, own := ownLine(m.Name); own {
		formatted = l.indent(value, ind)
	}
	v, err := hujson.Parse([]byte(formatted))
	if err != nil {
		return fmt.Errorf("the new value of %q does not parse: %w", nameOf(m.Name), err)
	}
	m.Value.Value = v.Value
	return nil
}
