package markers

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzSplice checks, for any text, that parsing never panics and that a
// file that parses keeps the user's text: adding a block and removing it
// again gives back the text (a final newline aside), and removing any
// block leaves the text outside the others as it was.
func FuzzSplice(f *testing.F) {
	for _, s := range []string{
		"", "# Mine\n", "no newline", "a\r\nb\r\n",
		"x\n" + Begin("rule.a") + "\nbody\n" + End("rule.a") + "\ny\n",
		Begin("rule.a") + "\n" + End("rule.a"),
		"\n\n" + Begin("rule.a") + "\n1\n" + End("rule.a") + "\n\n" + Begin("rule.b") + "\n2\n" + End("rule.b") + "\n\n",
		"```\n" + Begin("rule.a") + "\n```\n",
	} {
		f.Add([]byte(s), "new body\n")
	}
	f.Fuzz(func(t *testing.T, src []byte, newBody string) {
		file, err := Parse("f", src)
		if err != nil {
			return
		}
		if _, ok := FindMarker(newBody); ok || strings.Contains(newBody, "\r") || (newBody != "" && newBody[len(newBody)-1] != '\n') {
			return // bodies are LF text ending in a newline, without markers
		}
		if _, ok := file.Block("rule.fuzz"); ok {
			return
		}
		added := file.Set("rule.fuzz", newBody)
		again, err := Parse("f", added)
		if err != nil {
			t.Fatalf("Set made a file that does not parse: %v\n%q", err, added)
		}
		b, ok := again.Block("rule.fuzz")
		if !ok || again.Body(b) != newBody {
			t.Fatalf("the block set is not read back: %q", added)
		}
		if !bytes.Equal(nonBlank(again.Outside()), nonBlank(file.Outside())) {
			t.Fatalf("Set changed the user's text:\n%q\n%q", file.Outside(), again.Outside())
		}
		removed := again.Remove("rule.fuzz")
		// Whatever the file's last line, with or without a newline.
		if !bytes.Equal(removed, src) {
			t.Fatalf("set then remove did not give the text back:\n%q\n%q", src, removed)
		}
		for _, b := range file.Blocks() {
			out, err := Parse("f", file.Remove(b.ID))
			if err != nil {
				t.Fatalf("Remove made a file that does not parse: %v", err)
			}
			if len(out.Blocks()) != len(file.Blocks())-1 {
				t.Fatalf("Remove(%s) left %d blocks of %d", b.ID, len(out.Blocks()), len(file.Blocks()))
			}
		}
	})
}

// nonBlank is text without its blank lines and line ends: the user's text
// as Set may only add blank lines and line ends to it.
func nonBlank(text []byte) []byte {
	var out []byte
	for _, l := range lines(text) {
		if c := bytes.TrimSpace(l.content()); len(c) > 0 {
			out = append(append(out, c...), 0)
		}
	}
	return out
}
