package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
)

// Format returns src in canonical HCL layout. Source that does not parse, or
// is not fit to (see MaxFileSize, MaxNesting), is returned unchanged with
// the diagnostics: formatting broken input could move text the author has
// yet to fix.
func Format(filename string, src []byte) ([]byte, hcl.Diagnostics) {
	if diags := checkSource(filename, src); diags.HasErrors() {
		return src, diags
	}
	if _, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos); diags.HasErrors() {
		return src, diags
	}
	return hclwrite.Format(src), nil
}
