package adopt

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/backup"
	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/skills"
)

// HCL renders the proposal as configuration text, under a header comment.
func (p *Proposal) HCL(header string) []byte {
	var buf bytes.Buffer
	if header != "" {
		fmt.Fprintf(&buf, "# %s\n\n", header)
	}
	for _, s := range p.Services {
		buf.Write(s.block.Bytes())
		buf.WriteString("\n")
	}
	for _, s := range p.Skills {
		f := hclwrite.NewEmptyFile()
		comment(f.Body(), fmt.Sprintf("# Adopted from %s: %s\n", s.Origin, s.From))
		b := f.Body().AppendNewBlock("skill", []string{s.Name}).Body()
		b.SetAttributeValue("source", cty.StringVal("./"+s.To))
		b.SetAttributeValue("origin", cty.StringVal(s.Origin))
		buf.Write(f.Bytes())
		buf.WriteString("\n")
	}
	for _, in := range p.Instructions {
		buf.Write(instructionBlock(in, p.home).Bytes())
		buf.WriteString("\n")
	}
	for _, l := range p.Links {
		buf.Write(linkBlock(l, p.home).Bytes())
		buf.WriteString("\n")
	}
	return hclwrite.Format(bytes.TrimRight(buf.Bytes(), "\n"))
}

// WriteOptions say where adopt writes.
type WriteOptions struct {
	ConfigDir     string
	Out           string // the file to append to; chronicle.hcl in ConfigDir when empty
	ChronicleHome string // for the backup set
	Now           time.Time
}

// Write backs up the sources and the file it appends to, copies the skills
// (never moves them) and appends the blocks. It returns the file written.
func Write(p *Proposal, opts WriteOptions) (string, error) {
	out := opts.Out
	if out == "" {
		out = filepath.Join(opts.ConfigDir, "chronicle.hcl")
	}
	if p.Empty() {
		return out, nil
	}
	set := backup.Begin(fsys.OS{}, opts.ChronicleHome, "adopt", opts.Now)
	for _, src := range append(append([]string(nil), p.Sources...), out) {
		if err := set.Add(src); err != nil {
			return out, err
		}
	}
	for _, s := range p.Skills {
		if !s.Copy {
			continue
		}
		dst := filepath.Join(opts.ConfigDir, filepath.FromSlash(s.To))
		if err := skills.Copy(fsys.OS{}, s.From, dst); err != nil {
			return out, fmt.Errorf("adopting skill %s: %w", s.Name, err)
		}
		if s.Renamed {
			if err := renameSkill(dst, s.Name); err != nil {
				return out, err
			}
		}
	}
	for _, in := range p.Instructions {
		if !in.Copy {
			continue
		}
		dst := filepath.Join(opts.ConfigDir, filepath.FromSlash(in.To))
		if err := (fsys.OS{}).MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return out, err
		}
		if err := (fsys.OS{}).WriteNew(dst, in.Text, 0o644); err != nil {
			return out, fmt.Errorf("adopting %s %s: %w", in.Kind, in.Name, err)
		}
	}
	existing, err := os.ReadFile(out)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return out, err
	}
	text := p.HCL(fmt.Sprintf("Adopted by chronicle on %s.", opts.Now.UTC().Format("2006-01-02 15:04 MST")))
	if len(existing) > 0 {
		existing = append(bytes.TrimRight(existing, "\n"), '\n', '\n')
	}
	return out, (fsys.OS{}).WriteFile(out, append(existing, text...), 0o644)
}

// renameSkill rewrites the name of a copied skill's frontmatter, so the
// copy satisfies "name equals folder name" under its new name.
func renameSkill(dir, name string) error {
	p := filepath.Join(dir, skills.ManifestName)
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	renamed, err := skills.Rename(b, name)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	return (fsys.OS{}).WriteFile(p, renamed, 0o644)
}
