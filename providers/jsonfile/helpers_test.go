package jsonfile

// Single-change forms of Edit and of its verification, for the tests.

// edit parses src and makes changes.
func edit(path string, src []byte, changes ...Change) ([]byte, error) {
	d, err := Parse(path, src)
	if err != nil {
		return nil, err
	}
	return d.Edit(changes)
}

// set returns src with member name of the object at keyPath set to value.
func set(path string, src []byte, keyPath []string, name string, value []byte) ([]byte, error) {
	return edit(path, src, Change{KeyPath: keyPath, Name: name, Value: value})
}

// remove returns src without member name of the object at keyPath.
func remove(path string, src []byte, keyPath []string, name string) ([]byte, error) {
	return edit(path, src, Change{KeyPath: keyPath, Name: name})
}

// verify checks that got is src with member name at keyPath set to value
// (removed when value is nil) and nothing else changed.
func verify(path string, src, got []byte, keyPath []string, name string, value []byte) error {
	d, err := Parse(path, src)
	if err != nil {
		return err
	}
	return verifyChanges(d, got, []Change{{KeyPath: keyPath, Name: name, Value: value}})
}
