package jsonfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// decode unmarshals standard JSON with numbers kept as json.Number, so that
// comparing two documents never loses precision.
func decode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}

// Marshal encodes v compactly without escaping <, > and &.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Equal reports whether two standard JSON texts mean the same value.
func Equal(a, b []byte) bool {
	var x, y any
	if decode(a, &x) != nil || decode(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// lookup follows keyPath through decoded objects.
func lookup(tree map[string]any, keyPath []string) (any, bool) {
	var cur any = tree
	for _, key := range keyPath {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[key]; !ok {
			return nil, false
		}
	}
	return cur, true
}
