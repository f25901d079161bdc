package mask

import (
	"strings"
	"testing"
)

// BenchmarkValue: the shape rules over a 10 MB run of one character (a
// large tool result in the hub's log) and over 100 KB of plan-like text.
func BenchmarkValue(b *testing.B) {
	line := `  + service.github-docs-search: command "npx -y @modelcontextprotocol/server-github" env GITHUB_TOKEN=secret("env:GITHUB_TOKEN") sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08` + "\n"
	for name, text := range map[string]string{
		"run-10MB":   strings.Repeat("A", 10<<20),
		"plan-100KB": strings.Repeat(line, 100<<10/len(line)),
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				_ = Value(text)
			}
		})
	}
}
