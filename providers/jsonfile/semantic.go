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
	if err := NewEncoder(&buf).Put(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// An Encoder appends values to a buffer as Marshal encodes them: one
// encoder for the many small values of an ordered object, not one encoder
// and buffer per value.
type Encoder struct {
	buf *bytes.Buffer
	enc *json.Encoder
}

// NewEncoder returns an Encoder appending to buf.
func NewEncoder(buf *bytes.Buffer) *Encoder {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	return &Encoder{buf: buf, enc: enc}
}

// Put appends v, encoded as Marshal does. On an error nothing is appended.
func (e *Encoder) Put(v any) error {
	if err := e.enc.Encode(v); err != nil {
		return err
	}
	e.buf.Truncate(e.buf.Len() - 1) // Encode ends the value with a newline
	return nil
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
