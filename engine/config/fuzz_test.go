package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
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

// FuzzFormat checks chronicle fmt on any bytes: input it refuses comes back
// unchanged; input it formats is a fixed point (formatting it again changes
// nothing) and means the same configuration, with the same diagnostics.
func FuzzFormat(f *testing.F) {
	for _, s := range formatSeeds(f) {
		f.Add(s)
	}
	opts := Options{
		Home:       "/home/fuzz",
		Getenv:     func(k string) (string, bool) { return "value-of-" + k, true },
		KnownTools: testTools,
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, diags := Format("fuzz.hcl", src)
		if diags.HasErrors() {
			if !bytes.Equal(out, src) {
				t.Fatalf("fmt changed input it refused:\n%q\n%q", src, out)
			}
			return
		}
		again, diags := Format("fuzz.hcl", out)
		if diags.HasErrors() || !bytes.Equal(again, out) {
			t.Fatalf("fmt is not idempotent (%v):\nonce:  %q\ntwice: %q", diags, out, again)
		}
		before, _, bdiags := LoadSource("/cfg", "fuzz.hcl", src, opts)
		after, _, adiags := LoadSource("/cfg", "fuzz.hcl", out, opts)
		if d := cmp.Diff(before, after, cmpopts.IgnoreTypes(hcl.Range{}), cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("fmt changed the meaning (-before +after):\n%s\n%q\n%q", d, src, out)
		}
		if d := cmp.Diff(diagTexts(bdiags), diagTexts(adiags)); d != "" {
			t.Fatalf("fmt changed the diagnostics (-before +after):\n%s\n%q\n%q", d, src, out)
		}
	})
}

// formatSeeds are the examples, the reference and some unformatted text.
func formatSeeds(f *testing.F) [][]byte {
	paths, _ := filepath.Glob("../../examples/*/*.hcl")
	paths = append(paths, "../../chronicle.hcl.example")
	var seeds [][]byte
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			seeds = append(seeds, b)
		}
	}
	for _, s := range []string{
		"service \"x\"{\ncommand=\"a\"\n  args=[ \"b\",\"c\" ]\n}\n",
		"locals {\na = 1\n  bb = { x = [1,2], y = \"${var.v}\" }\n}\nvariable \"v\" {\ndefault=\"d\"\n}\n",
		"link \"l\" {\n\ttools = [\"cursor\"]\n}\n",
		"# comment\nhub {\n  listen = \"127.0.0.1:7311\" # trailing\n}\n",
		"service \"x\" {\n  command = <<EOT\n  npx\nEOT\n}\n",
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// diagTexts is what the diagnostics say, sorted, without where (their
// ranges, and ranges quoted in details: formatting moves columns) and
// without hcl's "Did you mean" for an unknown function: hcl reports some
// diagnostics, and picks among equally close names, in map order.
func diagTexts(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		detail := suggestion.ReplaceAllString(d.Detail, "")
		detail = quotedRange.ReplaceAllString(detail, ".hcl:…")
		out = append(out, fmt.Sprintf("%d %s: %s", d.Severity, d.Summary, detail))
	}
	slices.Sort(out)
	return out
}

var (
	suggestion  = regexp.MustCompile(` Did you mean "[^"]*"\?`)
	quotedRange = regexp.MustCompile(`\.hcl:\d+,\d+-\d+(,\d+)?`)
)
