package jsontool

import (
	"encoding/json"
	"testing"

	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// An Object's own encoding is the one jsonfile.Marshal gives it (which
// Render used to call): compact, members in order, <, > and & as they
// are, a raw value's whitespace dropped — byte for byte, because the
// state records the hash of what Render returns.
func TestObjectEncodesAsMarshalDoes(t *testing.T) {
	var inner Object
	inner.Add("b<&>", []any{"x", 1.5, true, nil, map[string]any{"z": 1, "a": "é\u2028"}})
	inner.Add("raw", json.RawMessage("{ \"k\" :\n [1, 2] }"))
	var o Object
	o.Add("command", "npx")
	o.Add("args", []string{"-y", "@scope/pkg", "<script>"})
	o.Add("env", inner)
	o.Add("empty", Object{})
	o.Add("nothing", Object(nil))
	for _, v := range []Object{o, nil, {}} {
		got, err := v.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		want, err := jsonfile.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("the object encodes as\n%s\njsonfile.Marshal gives\n%s", got, want)
		}
	}
	var bad Object
	bad.Add("f", func() {})
	if _, err := bad.MarshalJSON(); err == nil {
		t.Fatal("a value JSON cannot hold was encoded")
	}
}
