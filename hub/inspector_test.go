package hub

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/mask"
)

func TestInspectorKeepsTheLast300Masked(t *testing.T) {
	m := &mask.Masker{}
	m.Add("resolved-upstream-secret")
	in := NewInspector(m)
	for i := 0; i < 350; i++ {
		in.Add(DirRecv, "s1", []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"arguments":{"token":"resolved-upstream-secret"}}}`, i)))
	}
	in.Note("", "not json ghp_abcdefghijklmnopqrstuvwxyz0123456789")
	rs := in.Records()
	if len(rs) != InspectorSize || rs[0].Seq != 52 || rs[len(rs)-1].Direction != DirNote {
		t.Fatalf("got %d records from seq %d", len(rs), rs[0].Seq)
	}
	for _, r := range rs {
		if strings.Contains(string(r.Message), "resolved-upstream-secret") || strings.Contains(r.Note, "ghp_abcdefghij") {
			t.Fatalf("a secret was kept: %+v", r)
		}
	}
}
