package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the loader: whatever the input, it
// returns diagnostics and never panics. The seed corpus, run by plain
// `go test`, is the reference example, every example configuration, and the
// broken snippets of TestDiagnostics.
func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("../../examples/*/*.hcl")
	seeds = append(seeds, "../../chronicle.hcl.example")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"servce \"x\" {}", "service \"x\" {\n  command = \n}", "locals {\n a = local.a\n}",
		"service \"x\" { command = \"a\"\n env = { T = secret(\"env:\") } }",
		"variable \"v\" { type = list(string)\n default = 3 }", "hub { listen = \"[::1\" }",
		"service \"x\" { command = \"${secret(\"env:A\")}\" }", "\x00\xff{{{",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, _, _ := LoadSource(dir, "fuzz.hcl", src, Options{
			Home:       "/home/fuzz",
			Getenv:     func(string) (string, bool) { return "", false },
			KnownTools: testTools,
		})
		if cfg == nil {
			t.Fatal("Load returned no Config")
		}
	})
}
