package jsontool

import (
	"slices"

	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// merge combines the stored entry's fields with the newly encoded entry (a
// standard JSON object, with its extra fields): the stored fields keep their
// order, owned fields take the new value or go, the fields of drop (extra
// fields chronicle wrote before) go, other unknown fields stay, and new
// fields are appended. A default value (Tool.Defaults) is kept where stored
// and not added where not: it means the same either way.
func (t *Tool) merge(have []jsonfile.Member, enc []byte, drop []string) ([]byte, error) {
	want, _ := jsonfile.ObjectMembers(enc)
	wanted := map[string]any{}
	for _, m := range want {
		wanted[m.Name] = m.Value
	}
	var out Object
	done := map[string]bool{}
	for _, m := range have {
		switch v, ok := wanted[m.Name]; {
		case ok:
			out.Add(m.Name, v)
			done[m.Name] = true
		case slices.Contains(t.Owned, m.Name):
			if t.isDefault(m.Name, m.Value) {
				out.Add(m.Name, m.Value)
			}
		case !slices.Contains(drop, m.Name):
			out.Add(m.Name, m.Value)
		}
	}
	for _, m := range want {
		if !done[m.Name] && !t.isDefault(m.Name, m.Value) {
			out.Add(m.Name, m.Value)
		}
	}
	return jsonfile.Marshal(out)
}

// isDefault reports whether v means the same as leaving field out.
func (t *Tool) isDefault(field string, v any) bool {
	d, ok := t.Defaults[field]
	if !ok {
		return false
	}
	b, err := jsonfile.Marshal(v)
	return err == nil && jsonfile.Equal(b, []byte(d))
}
