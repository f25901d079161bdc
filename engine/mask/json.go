package mask

import (
	"bytes"
	"encoding/json"
)

// JSON masks a JSON document bound for an MCP client: registered values are
// replaced with Bare inside its strings (keys and values, at any depth) and
// every other byte is left as it is. A document without escape sequences is
// masked in place; one with escapes is decoded so that a value spelled with
// \u escapes is found too, and re-encoded only when it held one. Input that
// is not JSON is masked as text.
func (m *Masker) JSON(b []byte) []byte {
	set := m.load()
	if set == nil {
		return b
	}
	if bytes.IndexByte(b, '\\') < 0 {
		if s := string(b); set.bare.Replace(s) != s {
			return []byte(set.bare.Replace(s))
		}
		return b
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return []byte(set.bare.Replace(string(b)))
	}
	v, changed := set.walk(v)
	if !changed {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return []byte(set.bare.Replace(string(b)))
	}
	return out
}

// walk replaces registered values in every string of v.
func (s *literalSet) walk(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		if r := s.bare.Replace(x); r != x {
			return r, true
		}
	case []any:
		changed := false
		for i, e := range x {
			var c bool
			if x[i], c = s.walk(e); c {
				changed = true
			}
		}
		return x, changed
	case map[string]any:
		changed := false
		for k, e := range x {
			nv, c := s.walk(e)
			nk := s.bare.Replace(k)
			if nk != k {
				delete(x, k)
				c = true
			}
			x[nk] = nv
			changed = changed || c
		}
		return x, changed
	}
	return v, false
}
