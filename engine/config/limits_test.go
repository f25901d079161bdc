package config

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// loadFile loads a directory holding only name with content src.
func loadFile(t *testing.T, name string, src []byte) (string, hcl.Diagnostics) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, diags := Load(dir, Options{Home: "/home/dev", Getenv: func(string) (string, bool) { return "", false }, KnownTools: testTools})
	return path, diags
}

// oneError asserts that diags is one error with summary, naming path.
func oneError(t *testing.T, diags hcl.Diagnostics, summary, path string) {
	t.Helper()
	if len(diags) != 1 || diags[0].Severity != hcl.DiagError || diags[0].Summary != summary {
		t.Fatalf("got %d diagnostics, want one %q: %.2000s", len(diags), summary, diags.Error())
	}
	d := diags[0]
	if d.Subject == nil || d.Subject.Filename != path {
		t.Fatalf("the diagnostic does not name %s: %s (subject %v)", path, d.Detail, d.Subject)
	}
}

func TestBinaryFileIsOneDiagnostic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{10 << 10, 100 << 10} {
		junk := make([]byte, size)
		for i := range junk {
			junk[i] = byte(rng.UintN(256))
		}
		junk[0], junk[1] = 'a', 0xff // the first bad byte is at line 1, column 2
		path, diags := loadFile(t, "image.hcl", junk)
		oneError(t, diags, "Configuration file is not UTF-8 text", path)
		if pos := diags[0].Subject.Start; pos.Line != 1 || pos.Column != 2 {
			t.Errorf("the bad byte is reported at %d:%d, want 1:2", pos.Line, pos.Column)
		}
	}
}

func TestOversizedFileIsOneDiagnostic(t *testing.T) {
	big := []byte("# " + strings.Repeat("x", MaxFileSize) + "\n")
	path, diags := loadFile(t, "big.hcl", big)
	oneError(t, diags, "Configuration file too large", path)
	if !strings.Contains(diags[0].Detail, "more than 1 MiB") {
		t.Errorf("the limit is not named: %s", diags[0].Detail)
	}
	// At the limit, a file is read.
	fits := []byte("# " + strings.Repeat("x", MaxFileSize-3) + "\n")
	if _, diags := loadFile(t, "fits.hcl", fits); diags.HasErrors() {
		t.Fatalf("a comment of exactly 1 MiB: %s", diags.Error())
	}
}

// TestLexicalFloodIsBounded: valid UTF-8 that is not HCL gives a bounded
// number of diagnostics, not one per character.
func TestLexicalFloodIsBounded(t *testing.T) {
	path, diags := loadFile(t, "notes.hcl", []byte(strings.Repeat("@#§\n", 100_000)))
	if len(diags) != maxLexical+1 || diags[maxLexical].Summary != "Not an HCL configuration" || diags[maxLexical].Subject.Filename != path {
		t.Fatalf("%d diagnostics, the last %q", len(diags), diags[len(diags)-1].Summary)
	}
}

// nested builds a construct nested n levels deep inside an attribute of a
// locals block (one level itself).
var nested = map[string]func(n int) string{
	"tuple":       func(n int) string { return "a = " + strings.Repeat("[", n) + strings.Repeat("]", n) },
	"object":      func(n int) string { return "a = " + strings.Repeat("{b = ", n) + "1" + strings.Repeat("}", n) },
	"parentheses": func(n int) string { return "a = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) },
	"calls":       func(n int) string { return "a = " + strings.Repeat("abs(", n) + "1" + strings.Repeat(")", n) },
	"templates":   func(n int) string { return "a = " + strings.Repeat(`"${`, n) + "1" + strings.Repeat(`}"`, n) },
	"directives": func(n int) string {
		return `a = "` + strings.Repeat("%{if true}", n) + "x" + strings.Repeat("%{endif}", n) + `"`
	},
	"negations":   func(n int) string { return "a = " + strings.Repeat("!", n) + "true" },
	"minus":       func(n int) string { return "a = " + strings.Repeat("-", n) + "1" },
	"conditional": func(n int) string { return "a = " + strings.Repeat("true ? 1 : ", n) + "2" },
	"splats":      func(n int) string { return "a = [[1]]" + strings.Repeat("[*]", n) },
}

func TestNestingIsBounded(t *testing.T) {
	for name, build := range nested {
		t.Run(name, func(t *testing.T) {
			// Every construct counts at least one level per repetition;
			// some (templates) count two.
			fits := "locals {\n" + build(10) + "\n}\n"
			if _, diags := loadFile(t, "ok.hcl", []byte(fits)); diags.HasErrors() {
				t.Fatalf("10 levels: %s", diags.Error())
			}
			levels := []int{MaxNesting, 10_000}
			if name == "tuple" {
				levels = append(levels, 100_000) // the depth that overflowed the stack before the limit
			}
			for _, n := range levels {
				src := "locals {\n" + build(n) + "\n}\n"
				path, diags := loadFile(t, "deep.hcl", []byte(src))
				oneError(t, diags, "Configuration nested too deeply", path)
				if n > MaxNesting {
					continue
				}
				if out, fdiags := Format(path, []byte(src)); len(fdiags) != 1 || string(out) != src {
					t.Fatalf("fmt of %d levels: %s", n, fdiags.Error())
				}
			}
		})
	}
	// The limit is exact: the locals block and 99 brackets fit, 100 do not.
	if _, diags := loadFile(t, "ok.hcl", []byte("locals {\n"+nested["tuple"](MaxNesting-1)+"\n}\n")); diags.HasErrors() {
		t.Fatalf("%d levels: %s", MaxNesting, diags.Error())
	}
	// Blocks nest too.
	deep := strings.Repeat("locals {\n", 200) + strings.Repeat("}\n", 200)
	path, diags := loadFile(t, "blocks.hcl", []byte(deep))
	oneError(t, diags, "Configuration nested too deeply", path)
}

// TestLongFlatChainsAreNotNesting: operators that HCL parses in a loop and
// long lists are not depth.
func TestLongFlatChainsAreNotNesting(t *testing.T) {
	for _, src := range []string{
		"locals {\n  a = " + strings.Repeat("1 - ", 5000) + "1\n}\n",
		"locals {\n  a = [" + strings.Repeat("-1, ", 5000) + "1]\n}\n",
		"locals {\n" + strings.Repeat("  a1 = !true\n  b1 = true ? 1 : 2\n", 1) + "}\n",
	} {
		if _, diags := loadFile(t, "flat.hcl", []byte(src)); diags.HasErrors() {
			t.Fatalf("%.80s…: %s", src, diags.Error())
		}
	}
	var many strings.Builder
	many.WriteString("locals {\n")
	for i := range 500 {
		many.WriteString("  a" + strings.Repeat("x", i) + " = !true ? -1 : -2\n")
	}
	many.WriteString("}\n")
	if _, diags := loadFile(t, "many.hcl", []byte(many.String())); diags.HasErrors() {
		t.Fatalf("many short conditionals: %s", diags.Error())
	}
}

// A file up to concurrentParseSize is parsed while it is checked: the
// deepest nesting that fits in it must still come back as the nesting
// diagnostic, the parser running beside the check without crashing.
func TestTheDeepestSmallFileIsRefusedWhileParsed(t *testing.T) {
	n := (concurrentParseSize - 8) / 2
	for name, src := range map[string]string{
		"lists":  "a = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n",
		"blocks": strings.Repeat("b {\n", n/3) + strings.Repeat("}\n", n/3),
	} {
		if len(src) > concurrentParseSize {
			t.Fatalf("%s: %d bytes, over the size parsed concurrently", name, len(src))
		}
		_, _, diags := LoadSource("/cfg", "deep.hcl", []byte(src), Options{})
		if !diags.HasErrors() || !strings.Contains(diags.Error(), "nested") {
			t.Errorf("%s: %v, want the nesting diagnostic", name, diags)
		}
	}
}

// knownSums is a config.Checked in memory.
type knownSums struct {
	sums         map[[32]byte]bool
	asked, added int
}

func (k *knownSums) Passed(sum [32]byte) bool { k.asked++; return k.sums[sum] }
func (k *knownSums) Add(sum [32]byte)         { k.added++; k.sums[sum] = true }

// A file is checked once; loaded again unchanged, it is not lexed for the
// check again. A file that fails the check is never remembered.
func TestAFileIsCheckedOnce(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() <= concurrentParseSize; i++ {
		fmt.Fprintf(&b, "service \"s%d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"server-%d\"]\n}\n", i, i)
	}
	known := &knownSums{sums: map[[32]byte]bool{}}
	opts := Options{Home: "/home/u", Checked: known}
	for range 2 {
		if _, _, diags := LoadSource("/cfg", "big.hcl", []byte(b.String()), opts); diags.HasErrors() {
			t.Fatal(diags.Error())
		}
	}
	if known.asked != 2 || known.added != 1 {
		t.Fatalf("asked %d times, added %d; want 2 and 1", known.asked, known.added)
	}
	small := "service \"a\" {\n  command = \"npx\"\n}\n"
	for range 2 {
		if _, _, diags := LoadSource("/cfg", "small.hcl", []byte(small), opts); diags.HasErrors() {
			t.Fatal(diags.Error())
		}
	}
	if known.added != 2 {
		t.Fatalf("a small file was remembered %d times, want once", known.added-1)
	}
	deep := b.String() + "locals {\n  a = " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n}\n"
	for range 2 {
		if _, _, diags := LoadSource("/cfg", "deep.hcl", []byte(deep), opts); !diags.HasErrors() {
			t.Fatal("a file nested too deeply was accepted")
		}
	}
	if known.added != 2 {
		t.Fatalf("a file that failed the check was remembered (%d added)", known.added)
	}
}

// TestREADMEStatesLimits: the limits a user can hit are in the README, with
// the values the code enforces (issue 21, item 18).
func TestREADMEStatesLimits(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ") // lines rewrapped
	for _, want := range []string{
		fmt.Sprintf("each configuration file holds at most %d MiB of UTF-8 text", MaxFileSize>>20),
		fmt.Sprintf("nests blocks and brackets at most %d deep", MaxNesting),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
	if MaxFileSize%(1<<20) != 0 {
		t.Errorf("MaxFileSize is %d bytes, not a whole number of MiB: say it in the README as it is", MaxFileSize)
	}
}
