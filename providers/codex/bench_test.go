package codex

import (
	"fmt"
	"testing"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/secret"
	"github.com/chronicle-dev/chronicle/engine/service"
)

// BenchmarkEdit sets n new servers in ~/.codex/config.toml in one Edit of
// the provider's document, as apply's file transaction does: Codex's
// syntax, the splice and the verification.
func BenchmarkEdit(b *testing.B) {
	file := "/home/dev/.codex/config.toml"
	doc, err := New().Parse(file, fixture(b, "home"))
	if err != nil {
		b.Fatal(err)
	}
	loc := provider.Location{Tool: Name, Scope: provider.ScopeUser, File: file, KeyPath: []string{serversKey}}
	for _, n := range []int{1, 250, 2000} {
		edits := make([]provider.Edit, n)
		for i := range edits {
			e := provider.Entry{
				Name: fmt.Sprintf("svc-%04d", i),
				Definition: service.Definition{Transport: service.Stdio, Command: "npx",
					Args: []secret.Value{lit("-y"), lit(fmt.Sprintf("@example/mcp-%d", i))},
					Env:  map[string]secret.Value{"TOKEN": ref("TOKEN")}},
				Enabled: true,
			}
			edits[i] = provider.Edit{Location: loc, Name: e.Name, Entry: &e}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := doc.Edit(edits); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
