package inspect

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// TestDecodeCallToolResultAsMCPGo checks the one-decode path against
// mcp.ParseCallToolResult.
func TestDecodeCallToolResultAsMCPGo(t *testing.T) {
	for _, c := range []string{
		`{"content":[{"type":"text","text":"a"}]}`,
		`{"content":[{"type":"text","text":"a"}],"isError":true,"structuredContent":{"x":1},"_meta":{"k":"v"}}`,
		`{"CONTENT":[{"type":"text","text":"a"}]}`,
		`{"content":null}`,
		`{}`,
		`{"resultType":"input_required","inputRequests":{}}`,
		`{"resultType":"complete"}`,
		`{"content":[{"type":"image","data":"AA==","mimeType":"image/png"}]}`,
		`{"content":[{"type":"nope"}]}`,
		`[]`,
		`{"\u0063ontent":[]}`,
	} {
		raw := json.RawMessage(c)
		want, wantErr := mcp.ParseCallToolResult(&raw)
		got, err := DecodeCallToolResult([]byte(c))
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%s: error %v, mcp-go: %v", c, err, wantErr)
			continue
		}
		if err == nil {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if !bytes.Equal(g, w) {
				t.Errorf("%s: %s, mcp-go: %s", c, g, w)
			}
		}
	}
}
