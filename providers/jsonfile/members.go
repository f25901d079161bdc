package jsonfile

import (
	"bytes"
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
// with its own line (or, inline, the blanks after its comma: the next
// member takes its place) and the comma that separated it. What precedes a removed member's line — comments — stays,
// before whatever follows. An object left with nothing but blanks inside
// becomes "{}".
func removeMembers(o *hujson.Object, gone map[int]bool) {
	o.Members = removeItems(o.Members, &o.AfterExtra, gone,
		func(m *hujson.ObjectMember) *hujson.Extra { return &m.Name.BeforeExtra },
		func(m *hujson.ObjectMember) *hujson.Extra { return &m.Value.AfterExtra })
}

// removeElements deletes the elements of a whose indices are in gone, by
// the rules of removeMembers: an array left empty becomes "[]".
func removeElements(a *hujson.Array, gone map[int]bool) {
	a.Elements = removeItems(a.Elements, &a.AfterExtra, gone,
		func(v *hujson.Value) *hujson.Extra { return &v.BeforeExtra },
		func(v *hujson.Value) *hujson.Extra { return &v.AfterExtra })
}

// removeItems deletes the items whose indices are in gone from the members
// of an object or the elements of an array; closing is the extra before
// the closing brace or bracket, lead and tail give an item's extra before
// it and after it (before its comma). It returns the items kept.
func removeItems[T any](items []T, closing *hujson.Extra, gone map[int]bool, lead, tail func(*T) *hujson.Extra) []T {
	last := len(items) - 1
	trailing := last >= 0 && *tail(&items[last]) != nil
	kept := items[:0:0]
	var carry []byte  // the comments of removed items, for the next item
	var inline []byte // the blanks before a removed inline item
	var wasInline bool
	for i := range items {
		it := items[i]
		if gone[i] {
			before := slices.Concat(carry, *lead(&it))
			carry = before[:lineTail(before)]
			if !bytes.ContainsAny(before, "\n/") {
				if !wasInline { // the first of a run of removed items
					inline = before
				}
				wasInline = true
			} else {
				wasInline = false
			}
			continue
		}
		if wasInline && len(carry) == 0 && !bytes.ContainsAny(*lead(&it), "\n/") {
			// Inline, the item takes the place of the removed one: the
			// blanks before it were those after the removed one's comma.
			*lead(&it) = inline
		}
		wasInline = false
		if len(carry) > 0 {
			*lead(&it) = slices.Concat(carry, *lead(&it))
			carry = nil
		}
		kept = append(kept, it)
	}
	switch {
	case len(kept) == 0:
		*closing = slices.Concat(carry, *closing)
		if isSpace(*closing) {
			*closing = nil
		}
	case gone[last] && trailing:
		// The comma after the new last item is now the trailing one.
		if end := tail(&kept[len(kept)-1]); *end == nil {
			*end = []byte{}
		}
		*closing = slices.Concat(carry, *closing)
	case gone[last]:
		// The comma after the new last item goes; what stood before it
		// stays, before the closing brace.
		end := tail(&kept[len(kept)-1])
		*closing = slices.Concat(*end, carry, *closing)
		*end = nil
	}
	return kept
}

// appendMember adds the member name: value (standard JSON) after the last
// member of obj, at that member's indentation, or, in an empty object, one
// unit deeper than the line holding its brace. On lines of their own,
// comments before the closing brace stay before the new member; inline,
// they stay before the brace (see after). A trailing comma stays trailing.
func (l layout) appendMember(obj *hujson.Value, name string, value []byte) error {
	o := obj.Value.(*hujson.Object)
	var last *hujson.ObjectMember
	if n := len(o.Members); n > 0 {
		last = &o.Members[n-1]
	}
	p := placement{}
	if last != nil {
		p = l.after(last.Name.BeforeExtra, last.Value.AfterExtra, o.AfterExtra, len(o.Members) == 1, value)
	} else {
		p = l.first(obj.StartOffset, o.AfterExtra, value)
	}
	v, err := hujson.Parse([]byte(p.formatted))
	if err != nil {
		return fmt.Errorf("the new value of %q does not parse: %w", name, err)
	}
	o.Members = append(o.Members, hujson.ObjectMember{
		Name:  hujson.Value{BeforeExtra: p.before, Value: hujson.Literal(quote(name))},
		Value: hujson.Value{BeforeExtra: []byte(" "), Value: v.Value, AfterExtra: p.tail},
	})
	o.AfterExtra = p.closing
	return nil
}

// appendElement adds value (standard JSON) after the last element of the
// array arr, by the rules of appendMember.
func (l layout) appendElement(arr *hujson.Value, value []byte) error {
	a := arr.Value.(*hujson.Array)
	p := placement{}
	if n := len(a.Elements); n > 0 {
		p = l.after(a.Elements[n-1].BeforeExtra, a.Elements[n-1].AfterExtra, a.AfterExtra, n == 1, value)
	} else {
		p = l.first(arr.StartOffset, a.AfterExtra, value)
	}
	v, err := hujson.Parse([]byte(p.formatted))
	if err != nil {
		return fmt.Errorf("the new element %s does not parse: %w", value, err)
	}
	a.Elements = append(a.Elements, hujson.Value{BeforeExtra: p.before, Value: v.Value, AfterExtra: p.tail})
	a.AfterExtra = p.closing
	return nil
}

// A placement is where a new item of an object or array goes: the extra
// before it, its text, the extra after it (non-nil keeps a trailing comma)
// and the extra before the closing brace or bracket.
type placement struct {
	before    []byte
	formatted string
	tail      hujson.Extra
	closing   hujson.Extra
}

// first places the first item of an empty object or array that starts at
// open and holds closing: on its own line, one unit deeper than the line
// of the brace, after any comments.
func (l layout) first(open int, closing hujson.Extra, value []byte) placement {
	p := lastNonSpace(closing)
	comments, rest := closing[:p:p], closing[p:]
	ind := l.lineIndent(open)
	if p == 0 {
		rest = []byte(l.nl + ind)
	}
	return placement{
		before:    slices.Concat(comments, []byte(l.nl+ind+l.unit)),
		formatted: l.indent(value, ind+l.unit),
		closing:   rest,
	}
}

// after places an item after the last one, whose extras are lead and tail.
// When the last item starts a line, the new one goes on a line of its own
// at the same indentation, after any comments before the closing brace.
// Inline, it goes right after the last item's comma, after the blanks
// before the last item (one space when that is the only item and follows
// the brace at once), and what stood before the closing brace stays there:
// a comment that ends the line must not swallow the new item.
func (l layout) after(lead, tail, closing hujson.Extra, only bool, value []byte) placement {
	var out placement
	if ind, own := lineStart(lead); own {
		p := lastNonSpace(closing)
		out.before = slices.Concat(closing[:p:p], []byte(l.nl+ind))
		out.formatted = l.indent(value, ind)
		out.closing = closing[p:]
	} else {
		sep := inlineBlanks(lead)
		if only && sep == "" {
			sep = " "
		}
		out.before = []byte(sep)
		out.formatted = compact(value)
		out.closing = closing
	}
	if tail != nil {
		out.tail = []byte{} // keep the trailing comma, now after the new item
	}
	return out
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
