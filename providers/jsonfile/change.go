package jsonfile

import (
	"fmt"

	"github.com/tailscale/hujson"
)

// set returns src with member name of the object at keyPath set to value
// (standard JSON), creating the objects missing along keyPath. When the
// member exists and both old and new values are objects, only the fields
// that differ are touched, so the entry's own comments and layout stay.
func set(path string, src []byte, keyPath []string, name string, value []byte) ([]byte, error) {
	d, err := Parse(path, src)
	if err != nil {
		return nil, err
	}
	chain, err := d.chain(keyPath)
	if err != nil {
		return nil, err
	}
	l := layoutOf(src, &d.root)
	if k := len(chain) - 1; k < len(keyPath) {
		v := wrap(name, value)
		for j := len(keyPath) - 1; j > k; j-- {
			v = wrap(keyPath[j], v)
		}
		return l.insert(chain[k], keyPath[k], v), nil
	}
	obj := chain[len(keyPath)]
	switch countMembers(obj, name) {
	case 0:
		return l.insert(obj, name, value), nil
	case 1:
	default:
		return nil, fmt.Errorf("%s: %s holds %q more than once; remove the duplicates by hand first", path, dotted(keyPath), name)
	}
	old := obj.Value.(*hujson.Object).Members[memberIndex(obj, name)].Value
	if _, isObj := old.Value.(*hujson.Object); isObj && len(value) > 0 && value[0] == '{' {
		return setFields(path, src, append(keyPath[:len(keyPath):len(keyPath)], name), value)
	}
	return l.replace(obj, memberIndex(obj, name), value), nil
}

// setFields makes the object at keyPath equal to value field by field:
// fields value lacks are removed, changed fields are replaced in place and
// new ones appended in value's order.
func setFields(path string, src []byte, keyPath []string, value []byte) ([]byte, error) {
	want, err := hujson.Parse(value)
	if err != nil {
		return nil, fmt.Errorf("%s: the new value does not parse: %w", path, err)
	}
	d, err := Parse(path, src)
	if err != nil {
		return nil, err
	}
	have, err := d.Members(keyPath)
	if err != nil {
		return nil, err
	}
	wanted := map[string]bool{}
	for _, m := range want.Value.(*hujson.Object).Members {
		wanted[nameOf(m.Name)] = true
	}
	for _, m := range have {
		if !wanted[m.Name] {
			if src, err = removeMember(path, src, keyPath, m.Name); err != nil {
				return nil, err
			}
		}
	}
	current := map[string][]byte{}
	for _, m := range have {
		current[m.Name] = m.Value
	}
	for _, m := range want.Value.(*hujson.Object).Members {
		name, v := nameOf(m.Name), standard(m.Value)
		if old, ok := current[name]; ok && Equal(old, v) {
			continue
		}
		if src, err = set(path, src, keyPath, name, v); err != nil {
			return nil, err
		}
	}
	return src, nil
}

// removeMember returns src without member name of the object at keyPath;
// src itself when there is no such member.
func removeMember(path string, src []byte, keyPath []string, name string) ([]byte, error) {
	d, err := Parse(path, src)
	if err != nil {
		return nil, err
	}
	obj, err := d.object(keyPath)
	if err != nil || obj == nil {
		return src, err
	}
	switch countMembers(obj, name) {
	case 0:
		return src, nil
	case 1:
	default:
		return nil, fmt.Errorf("%s: %s holds %q more than once; remove the duplicates by hand first", path, dotted(keyPath), name)
	}
	out, err := layoutOf(src, &d.root).remove(obj, memberIndex(obj, name))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// remove returns src without member name of the object at keyPath, then
// removes the objects along keyPath that are left as exactly "{}" while each
// is the last member of its parent (see the package comment).
func remove(path string, src []byte, keyPath []string, name string) ([]byte, error) {
	out, err := removeMember(path, src, keyPath, name)
	if err != nil || len(out) == len(src) {
		return out, err
	}
	for k := len(keyPath); k > 0; k-- {
		d, err := Parse(path, out)
		if err != nil {
			return nil, err
		}
		parent, err := d.object(keyPath[:k-1])
		if err != nil || parent == nil {
			return out, err
		}
		members := parent.Value.(*hujson.Object).Members
		idx := memberIndex(parent, keyPath[k-1])
		if idx < 0 {
			return out, nil
		}
		if v := members[idx].Value; idx != len(members)-1 || v.EndOffset-v.StartOffset != len("{}") {
			return out, nil
		}
		if out, err = removeMember(path, out, keyPath[:k-1], keyPath[k-1]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// wrap returns {"name": value} as standard JSON.
func wrap(name string, value []byte) []byte {
	return []byte("{" + quote(name) + ":" + string(value) + "}")
}
