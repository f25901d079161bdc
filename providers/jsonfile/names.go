package jsonfile

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/tailscale/hujson"
)

// names maps each member name of an object to the indices of the members
// holding it, in file order: more than one is a name held twice.
type names map[string][]int

func indexNames(o *hujson.Object) names {
	n := make(names, len(o.Members))
	for i, m := range o.Members {
		name := nameOf(m.Name)
		n[name] = append(n[name], i)
	}
	return n
}

// nameOf returns the text of a member name.
func nameOf(v hujson.Value) string { return text(v.Value.(hujson.Literal)) }

// text returns the value of a JSON string literal. Most names need no
// unescaping, and a large file has many: those are cut out directly.
func text(lit hujson.Literal) string {
	if len(lit) >= 2 && bytes.IndexByte(lit, '\\') < 0 && utf8.Valid(lit) {
		return string(lit[1 : len(lit)-1])
	}
	var s string
	if err := json.Unmarshal(lit, &s); err != nil {
		return string(lit)
	}
	return s
}

// meaning returns what v means as standard JSON, decoded as encoding/json
// decodes it with UseNumber: objects as map[string]any (the last of a name
// held twice wins), arrays as []any, numbers as json.Number, and an object
// or array ParseOnly left out as its Raw bytes.
func meaning(v hujson.Value) any {
	switch x := v.Value.(type) {
	case *hujson.Object:
		m := make(map[string]any, len(x.Members))
		for _, mem := range x.Members {
			m[nameOf(mem.Name)] = meaning(mem.Value)
		}
		return m
	case *hujson.Array:
		a := make([]any, len(x.Elements))
		for i, e := range x.Elements {
			a[i] = meaning(e)
		}
		return a
	case hujson.Literal:
		switch x.Kind() {
		case '"':
			return text(x)
		case '0':
			return json.Number(x)
		case 't':
			return true
		case 'f':
			return false
		}
		if len(x) > 0 && (x[0] == '{' || x[0] == '[') {
			return Raw(x)
		}
	}
	return nil
}
