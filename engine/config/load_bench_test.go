package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLoad decodes a configuration of 2,000 services and a link that
// names them all, as the plan benchmarks generate it.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	var src strings.Builder
	var names []string
	for i := range 2000 {
		name := fmt.Sprintf("svc-%04d", i)
		names = append(names, `"`+name+`"`)
		fmt.Fprintf(&src, "service %q {\n  command = \"npx\"\n  args = [\"-y\", \"pkg-%d\"]\n  env = { TOKEN = secret(\"env:T%d\") }\n}\n", name, i, i)
	}
	fmt.Fprintf(&src, "link \"d\" {\n  tools = [\"cursor\"]\n  services = [%s]\n}\n", strings.Join(names, ", "))
	if err := os.WriteFile(filepath.Join(dir, "chronicle.hcl"), []byte(src.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, diags := Load(dir, Options{Home: "/home/dev", KnownTools: testTools}); diags.HasErrors() {
			b.Fatal(diags.Error())
		}
	}
}
