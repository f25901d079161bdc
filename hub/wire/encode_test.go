package wire

import (
	"encoding/json"
	"testing"
)

// TestOneLine: valid JSON is kept as it is unless it holds a line break;
// then it is compacted, and a broken document is an error.
func TestOneLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{ "a" : "<&>" }`, `{ "a" : "<&>" }`},
		{"{\"a\":\n [1,\r\n 2]}", `{"a":[1,2]}`},
		{"\"tab\tkept\"", "\"tab\tkept\""},
	} {
		if got, err := OneLine(json.RawMessage(c.in)); err != nil || string(got) != c.want {
			t.Errorf("OneLine(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if got, err := OneLine(json.RawMessage("{\n")); err == nil {
		t.Errorf("OneLine of a broken document = %q; want an error", got)
	}
}

// TestEncode: encoded params go in as they are (one line), empty ones as
// null; any other value is encoded by encoding/json.
func TestEncode(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{json.RawMessage(`{ "n" : 9007199254740993 }`), `{ "n" : 9007199254740993 }`},
		{json.RawMessage("{\n\"n\": 1\n}"), `{"n":1}`},
		{json.RawMessage(nil), `null`},
		{map[string]any{"uri": "a<b"}, `{"uri":"a\u003cb"}`},
	} {
		if got, err := Encode(c.in); err != nil || string(got) != c.want {
			t.Errorf("Encode(%v) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	if got, err := Encode(func() {}); err == nil {
		t.Errorf("Encode of a func = %s; want an error", got)
	}
}
