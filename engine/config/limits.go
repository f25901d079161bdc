package config

import (
	"crypto/sha256"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// MaxFileSize is the largest configuration file chronicle reads. Real
// configurations are a few kilobytes; a file far larger is not one (a
// binary saved as *.hcl, a log), and parsing it would only produce pages of
// diagnostics.
const MaxFileSize = 1 << 20

// MaxNesting is how deeply a configuration's blocks, brackets, templates and
// operator chains may nest. HCL's parser recurses once per level, so an
// unbounded depth could exhaust the stack; real configurations stay under ten.
const MaxNesting = 100

// maxLexical is how many character-level errors are worth reading before the
// file is reported as not being HCL at all.
const maxLexical = 10

// checkSource returns the diagnostics that make src unfit to parse as
// configuration — too large, not UTF-8 text, nested beyond MaxNesting, or
// full of characters HCL does not use — or nil when it can be parsed.
func checkSource(filename string, src []byte) hcl.Diagnostics {
	if len(src) > MaxFileSize {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Configuration file too large",
			Detail:   fmt.Sprintf("This file holds more than 1 MiB (%d bytes), the most a configuration file may hold. Is it really an HCL configuration?", MaxFileSize),
			Subject:  &hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos},
		}}
	}
	if !utf8.Valid(src) {
		pos := firstInvalidUTF8(src)
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Configuration file is not UTF-8 text",
			Detail:   fmt.Sprintf("This file has bytes that are not UTF-8 text at line %d, column %d: a configuration file must be UTF-8 text (is it a binary file named *.hcl?).", pos.Line, pos.Column),
			Subject:  &hcl.Range{Filename: filename, Start: pos, End: pos},
		}}
	}
	tokens, lexDiags := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	if d := checkNesting(tokens); d != nil {
		return hcl.Diagnostics{d}
	}
	if len(lexDiags) > maxLexical {
		return append(lexDiags[:maxLexical:maxLexical], &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Not an HCL configuration",
			Detail:   fmt.Sprintf("This file has %d more characters that HCL does not use; only the first %d are shown.", len(lexDiags)-maxLexical, maxLexical),
			Subject:  lexDiags[maxLexical].Subject,
		})
	}
	return nil
}

// firstInvalidUTF8 returns the position of src's first byte that is not
// part of valid UTF-8.
func firstInvalidUTF8(src []byte) hcl.Pos {
	pos := hcl.InitialPos
	for len(src) > 0 {
		r, size := utf8.DecodeRune(src)
		if r == utf8.RuneError && size <= 1 {
			return pos
		}
		pos.Byte += size
		pos.Column++
		if r == '\n' {
			pos.Line++
			pos.Column = 1
		}
		src = src[size:]
	}
	return pos
}

// A nestFrame is one open bracket, quote, heredoc, template sequence or
// template directive, with the operator chain open inside it.
type nestFrame struct {
	open  hclsyntax.TokenType
	chain int // conditionals (?) and unary operators since the last separator
}

// checkNesting follows the tokens' nesting as HCL's parser will recurse
// into it, and returns an error at the first token deeper than MaxNesting.
//
// Besides brackets, the parser recurses for each `? :` of a chained
// conditional, each unary `!` or `-`, each full splat `[*]` and each
// template `if`/`for` directive, so those count as levels too. An operator chain ends at a
// comma, and at a newline where newlines separate items (block bodies and
// object constructors).
func checkNesting(tokens hclsyntax.Tokens) *hcl.Diagnostic {
	stack := []nestFrame{{open: hclsyntax.TokenOBrace}} // the file's body
	chains := 0                                         // the sum of the frames' chains
	grow := func(f *nestFrame) { f.chain++; chains++ }
	reset := func(f *nestFrame) { chains -= f.chain; f.chain = 0 }
	prev := hclsyntax.TokenNil
	for i, tok := range tokens {
		top := &stack[len(stack)-1]
		switch tok.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenOQuote,
			hclsyntax.TokenOHeredoc, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			stack = append(stack, nestFrame{open: tok.Type})
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenCQuote,
			hclsyntax.TokenCHeredoc, hclsyntax.TokenTemplateSeqEnd:
			if len(stack) > 1 {
				chains -= top.chain
				stack = stack[:len(stack)-1]
			}
		case hclsyntax.TokenIdent:
			// A template directive opens or closes a level around the
			// template between its control sequences.
			if prev == hclsyntax.TokenTemplateControl {
				switch string(tok.Bytes) {
				case "if", "for":
					grow(&stack[len(stack)-2])
				case "endif", "endfor":
					if f := &stack[len(stack)-2]; f.chain > 0 {
						f.chain--
						chains--
					}
				}
			}
		case hclsyntax.TokenQuestion, hclsyntax.TokenBang:
			grow(top)
		case hclsyntax.TokenStar:
			if prev == hclsyntax.TokenOBrack && len(stack) > 1 {
				grow(&stack[len(stack)-2]) // a full splat, x[*]: the rest of the traversal recurses
			}
		case hclsyntax.TokenMinus:
			if !endsOperand(prev) {
				grow(top) // unary minus
			}
		case hclsyntax.TokenComma:
			reset(top)
		case hclsyntax.TokenNewline:
			if top.open == hclsyntax.TokenOBrace {
				reset(top)
			}
		}
		if tok.Type != hclsyntax.TokenComment {
			prev = tok.Type
		}
		if len(stack)-1+chains > MaxNesting {
			r := tokens[i].Range
			return &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Configuration nested too deeply",
				Detail:   fmt.Sprintf("The file nests blocks, brackets, templates or operators more than %d levels deep here; no configuration needs that many.", MaxNesting),
				Subject:  &r,
			}
		}
	}
	return nil
}

// endsOperand reports whether a token of type t can end an operand, so that
// a minus after it is binary (a - b) rather than unary (-b).
func endsOperand(t hclsyntax.TokenType) bool {
	switch t {
	case hclsyntax.TokenIdent, hclsyntax.TokenNumberLit, hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc,
		hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenStringLit,
		hclsyntax.TokenQuotedLit:
		return true
	}
	return false
}

// concurrentParseSize is the largest file the parser is given while
// checkSource still looks at it: no nesting that fits in 64 KiB exhausts
// the parser's stack (measured up to 32,000 levels of lists, parentheses,
// templates, blocks and operator chains: at most half a second, no crash;
// 100,000 levels overflow it). A larger file is checked first.
const concurrentParseSize = 64 << 10

// parseChecked parses src once checkSource accepts it, and reports whether
// it did (checked false: diags are checkSource's, and there is no file).
// A file known has seen pass, unchanged, is not checked again (the check
// lexes the whole file, which the parser does again). Otherwise a small
// file is parsed while it is checked, which takes the second lexing off
// the time a command waits, and a larger file is checked first.
func parseChecked(filename string, src []byte, known Checked) (file *hcl.File, checked bool, diags hcl.Diagnostics) {
	var sum [32]byte
	if known != nil {
		if sum = sha256.Sum256(src); known.Passed(sum) {
			file, diags = hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
			return file, true, diags
		}
	}
	passed := func() {
		if known != nil {
			known.Add(sum)
		}
	}
	if len(src) > concurrentParseSize {
		if d := checkSource(filename, src); d.HasErrors() {
			return nil, false, d
		}
		passed()
		file, diags = hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
		return file, true, diags
	}
	type parsed struct {
		file  *hcl.File
		diags hcl.Diagnostics
	}
	done := make(chan parsed, 1)
	go func() {
		f, d := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
		done <- parsed{f, d}
	}()
	check := checkSource(filename, src)
	p := <-done
	if check.HasErrors() {
		return nil, false, check
	}
	passed()
	return p.file, true, p.diags
}
