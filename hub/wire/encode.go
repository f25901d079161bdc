package wire

import (
	"bytes"
	"encoding/json"
)

// The hub passes on what a client or an upstream sent (a call's arguments,
// a tool's result) inside a message of its own. encoding/json would scan
// every byte of such a value again to compact it, the largest cost of a
// large call: a value the hub already holds as valid JSON goes in as it
// is, one line.

// OneLine returns raw, valid JSON, as it is, or compacted when it holds a
// line break, which neither a stdio line nor an SSE data line can carry.
func OneLine(raw json.RawMessage) (json.RawMessage, error) {
	if bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		return raw, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Encode returns v encoded on one line: already encoded (a
// json.RawMessage, which must be valid JSON) as it is (OneLine), null when
// empty; any other value by encoding/json.
func Encode(v any) (json.RawMessage, error) {
	raw, ok := v.(json.RawMessage)
	if !ok {
		return json.Marshal(v)
	}
	if len(raw) == 0 {
		return json.RawMessage("null"), nil
	}
	return OneLine(raw)
}
