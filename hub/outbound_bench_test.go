package hub

import (
	"bytes"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/relay"
	"github.com/chronicle-dev/chronicle/hub/session"
)

// BenchmarkKeepResult is the outbound filter on a tool result.
func BenchmarkKeepResult(b *testing.B) {
	a := &relay.Announcer{Clients: session.NewRegistry()}
	msg := []byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"` + string(bytes.Repeat([]byte("text "), 200)) + `"}]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if !a.Keep("s", msg) {
			b.Fatal("dropped")
		}
	}
}
