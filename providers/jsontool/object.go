package jsontool

import (
	"bytes"

	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// An Object is a JSON object whose members keep their order when encoded.
type Object []Field

// A Field is one member of an Object.
type Field struct {
	Key   string
	Value any
}

// Add appends a member.
func (o *Object) Add(key string, v any) { *o = append(*o, Field{key, v}) }

// MarshalJSON encodes the members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := jsonfile.NewEncoder(&b)
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Put(f.Key); err != nil {
			return nil, err
		}
		b.WriteByte(':')
		if err := enc.Put(f.Value); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
