package hub

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkWireHTTPModernCall is a 2026-07-28 client's sequential
// tools/call through the hub to the test upstream over stdio, a session-era
// upstream that asks nothing: the cost of a call the hub would hold if the
// upstream asked (decision 0230).
func BenchmarkWireHTTPModernCall(b *testing.B) {
	r := benchHub(b)
	c := wireClient()
	id := 0
	call := func() {
		id++
		body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"bench__echo","arguments":{"text":"ping"},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"wire","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`
		req, _ := http.NewRequest(http.MethodPost, r.url+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "bench__echo")
		resp, err := c.Do(withToken(req))
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !bytes.Contains(out, []byte("bench:ping")) {
			b.Fatalf("not the echo: %s", out)
		}
	}
	call() // starts the upstream
	sequential(b, call)
}
