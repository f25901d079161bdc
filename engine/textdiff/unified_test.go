package textdiff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	a := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
	b := "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n"
	got := Unified("a/f", "b/f", a, b)
	want := `--- a/f
+++ b/f
@@ -1,6 +1,6 @@
 one
 two
-three
+THREE
 four
 five
 six
@@ -8,3 +8,4 @@
 eight
 nine
 ten
+eleven
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if Unified("a", "b", a, a) != "" {
		t.Fatal("equal texts must give no diff")
	}
}

// TestUnifiedAppliesWithPatch checks the output against the patch program,
// when the machine has one: the diff must turn a into b.
func TestUnifiedAppliesWithPatch(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("no patch program on this machine")
	}
	cases := [][2]string{
		{"a\nb\nc\n", "a\nc\n"},
		{"", "new\nfile\n"},
		{"x\n", "y"},
		{strings.Repeat("l\n", 20) + "end\n", "start\n" + strings.Repeat("l\n", 20)},
	}
	for i, c := range cases {
		dir := t.TempDir()
		f := filepath.Join(dir, "f")
		os.WriteFile(f, []byte(c[0]), 0o644)
		d := Unified("f", "f", c[0], c[1])
		cmd := exec.Command(patch, "-s", f)
		cmd.Stdin = strings.NewReader(d)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch failed: %v\n%s\ndiff:\n%s", i, err, out, d)
		}
		if got, _ := os.ReadFile(f); string(got) != c[1] {
			t.Fatalf("case %d: patched file is %q, want %q\ndiff:\n%s", i, got, c[1], d)
		}
	}
}
