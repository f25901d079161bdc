package wire

import (
	"bytes"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// CallParams are a tools/call's params as the hub reads a client's
// (ReadCallParams) and sends them upstream (Encode): the tool's name, the
// arguments as the client sent them (omitted when it sent none), the
// _meta (upstream, with the hub's progress token), the task a client asked
// for, and a retry's inputResponses and requestState, passed on untouched.
type CallParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Meta      *mcp.Meta       `json:"_meta,omitempty"`
	Task      *mcp.TaskParams `json:"task,omitempty"`
	mcp.MultiRoundTripParams
}

// ReadCallParams reads a tools/call's params (valid JSON: a member of a
// message Peek read) as encoding/json would decode them into CallParams.
// A call of only a name and arguments — nearly every call — is read by one
// walk over the members and the arguments copied (the call outlives an
// HTTP body's buffer): encoding/json would scan all of them to copy them,
// a large call's largest cost (decision 0243). Any other member, or a
// member name spelled with escapes, and encoding/json decodes the whole.
func ReadCallParams(params []byte) (CallParams, bool) {
	var p CallParams
	other := false
	read := len(params) > 0 && params[0] == '{' && ScanValid(params, func(key, value []byte) {
		switch {
		case KeyIs(key, "name") && value[0] == '"':
			p.Name = StringValue(value)
		case KeyIs(key, "arguments"):
			p.Arguments = bytes.Clone(value)
		default:
			other = true
		}
	})
	if read && !other {
		return p, true
	}
	p = CallParams{}
	return p, json.Unmarshal(params, &p) == nil
}

// Encode returns the params encoded, once: the arguments, valid JSON as
// the client sent them, go in as they are (OneLine), where encoding/json
// would scan them all again — a large call's largest cost.
func (p CallParams) Encode() (json.RawMessage, error) {
	args, err := OneLine(p.Arguments)
	if err != nil {
		return nil, err
	}
	p.Arguments = nil
	rest, err := json.Marshal(p) // {"name":…}: the name is never omitted
	if err != nil || len(args) == 0 {
		return rest, err
	}
	const member = `{"arguments":`
	b := make([]byte, 0, len(member)+len(args)+len(rest))
	b = append(append(append(b, member...), args...), ',')
	return append(b, rest[1:]...), nil
}
