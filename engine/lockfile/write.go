package lockfile

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// header opens a new lock file.
const header = `# This file is maintained by "chronicle lock": commit it with the
# configuration so that every machine installs the same commits.
# Move an entry with "chronicle lock --upgrade ADDR", not by hand.

`

// Bytes is the lock file's text: the file it was read from, edited with
// hclwrite (comments and blocks of unknown types kept, entries in their
// places), with new entries appended in name order.
func (f *File) Bytes() []byte {
	hf, diags := hclwrite.ParseConfig(f.src, FileName, hcl.InitialPos)
	if diags.HasErrors() || len(f.src) == 0 {
		hf = hclwrite.NewEmptyFile()
		hf.Body().AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte(header)}})
	}
	body := hf.Body()
	body.SetAttributeValue("version", cty.NumberIntVal(Version))
	written := map[string]bool{}
	for _, b := range body.Blocks() {
		if b.Type() != "skill" || len(b.Labels()) != 1 {
			continue
		}
		name := b.Labels()[0]
		s, ok := f.Skills[name]
		if !ok || written[name] {
			body.RemoveBlock(b)
			continue
		}
		setSkill(b.Body(), s)
		written[name] = true
	}
	for _, name := range f.Names() {
		if written[name] {
			continue
		}
		body.AppendNewline()
		setSkill(body.AppendNewBlock("skill", []string{name}).Body(), f.Skills[name])
	}
	return hclwrite.Format(hf.Bytes())
}

func setSkill(b *hclwrite.Body, s Skill) {
	for name := range b.Attributes() {
		if !slices.Contains([]string{"url", "ref", "commit"}, name) {
			b.RemoveAttribute(name)
		}
	}
	b.SetAttributeValue("url", cty.StringVal(s.URL))
	b.SetAttributeValue("ref", cty.StringVal(s.Ref))
	b.SetAttributeValue("commit", cty.StringVal(s.Commit))
}

// Write writes the lock file into the configuration directory dir through
// sys, replacing it whole (a reader sees the old or the new file).
func (f *File) Write(sys fsys.System, dir string) error {
	path := Path(dir)
	b := f.Bytes()
	if err := sys.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	f.src = b
	return nil
}
