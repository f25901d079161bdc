package tokens

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// BenchmarkTool counts a typical definition (warm table).
func BenchmarkTool(b *testing.B) {
	t := mcp.NewToolWithRawSchema("github__create_issue", "Create a new issue in a GitHub repository",
		json.RawMessage(`{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"},"title":{"type":"string"},"body":{"type":"string"},"labels":{"type":"array","items":{"type":"string"}}},"required":["owner","repo","title"]}`))
	Tool(t)
	b.ResetTimer()
	for range b.N {
		Tool(t)
	}
}
