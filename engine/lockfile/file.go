package lockfile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// FileName is the lock file's name in the configuration directory. The dot
// keeps it out of the configuration loader, which skips dot files.
const FileName = ".chronicle.lock.hcl"

// Version is the format version this chronicle reads and writes. A file of
// a higher version is refused rather than half understood.
const Version = 1

// A Skill is the lock entry of one git skill block, named by the block's
// label.
type Skill struct {
	Name   string
	URL    string
	Ref    string // as the block says it; "" is the remote's default branch
	Commit string // the full SHA every machine installs
}

// Addr is the entry's address, the skill block's: skill.NAME.
func (s Skill) Addr() string { return "skill." + s.Name }

// A File is a lock file in memory: its entries, and the bytes it was read
// from, which Bytes edits so that comments and unknown blocks stay.
type File struct {
	Skills map[string]Skill
	src    []byte
}

// Path is the lock file of the configuration directory dir.
func Path(dir string) string { return filepath.Join(dir, FileName) }

// Load reads the lock file of the configuration directory dir. A missing
// file is a nil File and no diagnostics: without a lock file chronicle
// installs the tips of the refs. src is what was read, for the snippets of
// the diagnostics.
func Load(r fsys.Reader, dir string) (f *File, src []byte, diags hcl.Diagnostics) {
	path := Path(dir)
	src, err := r.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the lock file", Detail: fmt.Sprintf("%s: %s", path, err)}}
	}
	f, diags = Parse(src, path)
	return f, src, diags
}

var fileSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "version", Required: true}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "skill", LabelNames: []string{"name"}}},
}

var skillSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "url", Required: true}, {Name: "ref"}, {Name: "commit", Required: true},
	},
}

// Parse decodes a lock file's text; filename is used in diagnostics. On
// errors the File holds what could be read.
func Parse(src []byte, filename string) (*File, hcl.Diagnostics) {
	hf, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	f := &File{Skills: map[string]Skill{}, src: src}
	if diags.HasErrors() {
		return f, diags
	}
	// Partial: block types of later versions are not this version's to
	// judge, and Bytes leaves them as they are.
	content, _, more := hf.Body.PartialContent(fileSchema)
	diags = append(diags, more...)
	if a := content.Attributes["version"]; a != nil {
		v, d := a.Expr.Value(nil)
		diags = append(diags, d...)
		switch {
		case d.HasErrors():
		case v.Type() != cty.Number || !v.IsKnown() || v.IsNull():
			diags = append(diags, errAt(a.Expr.Range(), "Invalid lock file version", "version must be a whole number, like %d.", Version))
		default:
			n, _ := v.AsBigFloat().Int64()
			if n > Version {
				diags = append(diags, errAt(a.Expr.Range(), "Lock file from a newer chronicle", "%s has format version %d; this chronicle reads version %d. Upgrade chronicle on this machine.", FileName, n, Version))
				return f, diags
			}
			if n < 1 {
				diags = append(diags, errAt(a.Expr.Range(), "Invalid lock file version", "version %d is not a format version; this chronicle writes %d.", n, Version))
			}
		}
	}
	for _, b := range content.Blocks {
		s, d := decodeSkill(b)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		if _, dup := f.Skills[s.Name]; dup {
			diags = append(diags, errAt(b.DefRange, "Duplicate lock entry", "skill %q is locked twice; keep one block (chronicle lock --upgrade %s rewrites it).", s.Name, s.Addr()))
			continue
		}
		f.Skills[s.Name] = s
	}
	return f, diags
}

func decodeSkill(b *hcl.Block) (Skill, hcl.Diagnostics) {
	s := Skill{Name: b.Labels[0]}
	content, diags := b.Body.Content(skillSchema)
	str := func(name string) string {
		a := content.Attributes[name]
		if a == nil {
			return ""
		}
		v, d := a.Expr.Value(nil)
		diags = append(diags, d...)
		if d.HasErrors() {
			return ""
		}
		if v.Type() != cty.String || v.IsNull() {
			diags = append(diags, errAt(a.Expr.Range(), "Invalid lock entry", "%s of skill %q must be a string.", name, s.Name))
			return ""
		}
		return v.AsString()
	}
	s.URL, s.Ref, s.Commit = str("url"), str("ref"), str("commit")
	if a := content.Attributes["commit"]; a != nil && !diags.HasErrors() && !isSHA(s.Commit) {
		diags = append(diags, errAt(a.Expr.Range(), "Invalid locked commit", "%q is not a full 40-character lowercase commit SHA: run chronicle lock --upgrade %s to lock the current tip.", s.Commit, s.Addr()))
	}
	return s, diags
}

func isSHA(s string) bool {
	if len(s) != 40 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

func errAt(r hcl.Range, summary, detail string, args ...any) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(detail, args...), Subject: r.Ptr()}
}

// Names returns the locked skill names, sorted.
func (f *File) Names() []string {
	names := make([]string, 0, len(f.Skills))
	for n := range f.Skills {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
