package adopt

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/secret"
)

// tokensForValue renders a string that may hold references as an HCL
// template: literal text escaped (a literal "${" becomes "$${"), references
// as ${secret("kind:name")}, a whole reference as a bare secret(...) call.
func tokensForValue(v secret.Value) hclwrite.Tokens {
	if ref, ok := v.OnlyRef(); ok {
		return hclwrite.Tokens{{Type: hclsyntax.TokenIdent, Bytes: []byte(ref.HCL())}}
	}
	toks := hclwrite.Tokens{{Type: hclsyntax.TokenOQuote, Bytes: []byte(`"`)}}
	for _, p := range v.Parts() {
		if p.Ref != nil {
			toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenQuotedLit, Bytes: []byte("${" + p.Ref.HCL() + "}")})
			continue
		}
		lit := hclwrite.TokensForValue(cty.StringVal(p.Text))
		// Drop the quotes TokensForValue put around the escaped text.
		toks = append(toks, lit[1:len(lit)-1]...)
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenCQuote, Bytes: []byte(`"`)})
}

func tokensForList(vs []secret.Value) hclwrite.Tokens {
	elems := make([]hclwrite.Tokens, len(vs))
	for i, v := range vs {
		elems[i] = tokensForValue(v)
	}
	return hclwrite.TokensForTuple(elems)
}

func tokensForStrings(ss []string) hclwrite.Tokens {
	elems := make([]hclwrite.Tokens, len(ss))
	for i, s := range ss {
		elems[i] = hclwrite.TokensForValue(cty.StringVal(s))
	}
	return hclwrite.TokensForTuple(elems)
}

// tokensForMap renders env or headers. A literal left under a key that
// looks secret (adopt judged it not to be one: a tool's own prompt such as
// VS Code's ${input:id}) is written as nonsensitive(...), the deliberate
// plain value the configuration accepts there.
func tokensForMap(m map[string]secret.Value) hclwrite.Tokens {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	attrs := make([]hclwrite.ObjectAttrTokens, len(keys))
	for i, k := range keys {
		name := hclwrite.TokensForValue(cty.StringVal(k))
		if hclsyntax.ValidIdentifier(k) {
			name = hclwrite.TokensForIdentifier(k)
		}
		value := tokensForValue(m[k])
		if v := m[k]; !v.IsZero() && !v.HasRefs() && (secret.LooksSecret(k) || strings.EqualFold(k, "Authorization")) {
			value = append(append(hclwrite.Tokens{{Type: hclsyntax.TokenIdent, Bytes: []byte("nonsensitive")}, {Type: hclsyntax.TokenOParen, Bytes: []byte("(")}}, value...), &hclwrite.Token{Type: hclsyntax.TokenCParen, Bytes: []byte(")")})
		}
		attrs[i] = hclwrite.ObjectAttrTokens{Name: name, Value: value}
	}
	return hclwrite.TokensForObject(attrs)
}

func comment(body *hclwrite.Body, text string) {
	if text == "" {
		return
	}
	body.AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte(text)}})
}
