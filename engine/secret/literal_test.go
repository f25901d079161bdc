package secret

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// ParseTemplate reads literal text without the template parser; what it
// makes of it must be what the parser makes: the text, normalized to NFC.
func TestParseTemplateOfLiteralTextAgreesWithHCL(t *testing.T) {
	for _, s := range []string{
		"plain", `back\slash "q"`, "e\u0301 (NFD)", "a\r\nb", "tab\t", "$", "%", "$$", "a$b%c",
		`\n`, "", "ünï", "{}", "$ {", "% {", "100%", "price: $5",
	} {
		got, err := ParseTemplate(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		expr, diags := hclsyntax.ParseTemplate([]byte(s), "value", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("%q: %v", s, diags)
		}
		v, diags := expr.Value(nil)
		if diags.HasErrors() {
			t.Fatalf("%q: %v", s, diags)
		}
		want := v.AsString()
		if len(got.Parts()) > 1 || (want != "" && (len(got.Parts()) != 1 || got.Parts()[0].Text != want)) {
			t.Errorf("%q: ParseTemplate gives %#v, HCL gives %q", s, got.Parts(), want)
		}
	}
}
