package transport

import "testing"

// TestExposedNames: a message to a service's own endpoint names the
// service's tool or prompt as the service does; the hub's name goes in
// its place, every other member keeps its bytes, and a message that names
// nothing, or does not decode, is left as it is.
func TestExposedNames(t *testing.T) {
	for _, tc := range []struct{ in, want, old string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"n":12345678901234567890}}}`,
			`{"id":1,"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"n":12345678901234567890},"name":"gh__echo"}}`, "echo"},
		{`{"jsonrpc":"2.0","id":2,"method":"prompts/get","params":{"name":"review"}}`,
			`{"id":2,"jsonrpc":"2.0","method":"prompts/get","params":{"name":"gh__review"}}`, "review"},
		{`{"jsonrpc":"2.0","id":3,"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"review"},"argument":{"name":"a","value":""}}}`,
			`{"id":3,"jsonrpc":"2.0","method":"completion/complete","params":{"argument":{"name":"a","value":""},"ref":{"name":"gh__review","type":"ref/prompt"}}}`, "review"},
		{`{"jsonrpc":"2.0","id":4,"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"file:///x"}}}`, "", ""},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`, "", ""},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":""}}`, "", ""},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"name"}`, "", ""},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo"`, "", ""},
	} {
		out, old, exposed := exposedNames("gh", []byte(tc.in))
		want := tc.want
		if want == "" {
			want = tc.in
		}
		if string(out) != want || old != tc.old || (old != "" && exposed != "gh__"+old) || (old == "" && exposed != "") {
			t.Errorf("exposedNames(%s) = %s, %q, %q; want %s, %q", tc.in, out, old, exposed, want, tc.old)
		}
	}
}
