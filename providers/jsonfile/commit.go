package jsonfile

import (
	"strings"

	"github.com/tailscale/hujson"
)

// additions are the members to add to one object, in order: values, or
// objects created along a key path that does not exist yet.
type additions struct {
	list []addition
	at   map[string]int
}

type addition struct {
	name  string
	value []byte     // standard JSON, or nil for a created object
	sub   *additions // the members of a created object
}

// object returns the object created under name, creating it.
func (a *additions) object(name string) *additions {
	if i, ok := a.at[name]; ok {
		return a.list[i].sub
	}
	sub := &additions{}
	a.put(addition{name: name, sub: sub})
	return sub
}

// add adds the member name: value.
func (a *additions) add(name string, value []byte) { a.put(addition{name: name, value: value}) }

func (a *additions) put(x addition) {
	if a.at == nil {
		a.at = map[string]int{}
	}
	a.at[x.name] = len(a.list)
	a.list = append(a.list, x)
}

// json returns the addition's value as standard JSON.
func (x addition) json() []byte {
	if x.sub == nil {
		return x.value
	}
	var b []byte
	b = append(b, '{')
	for i, m := range x.sub.list {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, quote(m.name)...)
		b = append(b, ':')
		b = append(b, m.json()...)
	}
	return append(b, '}')
}

// commit makes the removals and additions collected for every object,
// then removes the objects that removals left empty.
func (e *editor) commit() error {
	for _, oe := range e.objects {
		if len(oe.removed) > 0 {
			removeMembers(oe.v.Value.(*hujson.Object), oe.removed)
		}
		for _, a := range oe.added.list {
			if err := e.l.appendMember(oe.v, a.name, a.json()); err != nil {
				return err
			}
		}
	}
	e.prune()
	return nil
}

// prune removes each object (or list, see RemoveString) along a key path
// that a removal emptied, while it is exactly "{}" (or "[]") and the last
// member of its parent, and so on up the
// key path (never the document itself; see the package comment).
func (e *editor) prune() {
	done := map[string]bool{}
	for _, keyPath := range e.emptied {
		if key := strings.Join(keyPath, "\x00"); done[key] {
			continue
		} else {
			done[key] = true
		}
		for k := len(keyPath); k > 0; k-- {
			parent := find(&e.root, keyPath[:k-1])
			if parent == nil {
				break
			}
			po := parent.Value.(*hujson.Object)
			n := len(po.Members)
			if n == 0 || nameOf(po.Members[n-1].Name) != keyPath[k-1] {
				break
			}
			if !isEmpty(po.Members[n-1].Value) {
				break
			}
			removeMembers(po, map[int]bool{n - 1: true})
		}
	}
}

// isEmpty reports whether v is an object or array written "{}" or "[]":
// no members or elements, and no comment inside.
func isEmpty(v hujson.Value) bool {
	switch x := v.Value.(type) {
	case *hujson.Object:
		return len(x.Members) == 0 && len(x.AfterExtra) == 0
	case *hujson.Array:
		return len(x.Elements) == 0 && len(x.AfterExtra) == 0
	}
	return false
}

// find returns the object at keyPath (the last of a name held twice), or
// nil.
func find(root *hujson.Value, keyPath []string) *hujson.Value {
	cur := root
	for _, key := range keyPath {
		o, ok := cur.Value.(*hujson.Object)
		if !ok {
			return nil
		}
		next := -1
		for i := len(o.Members) - 1; i >= 0 && next < 0; i-- {
			if nameOf(o.Members[i].Name) == key {
				next = i
			}
		}
		if next < 0 {
			return nil
		}
		cur = &o.Members[next].Value
	}
	if _, ok := cur.Value.(*hujson.Object); !ok {
		return nil
	}
	return cur
}
