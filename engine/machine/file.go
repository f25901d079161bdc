package machine

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/chronicle-dev/chronicle/engine/fsys"
)

// FileName is the machine file's name inside chronicle's folder.
const FileName = "machine.hcl"

// Path returns the machine file of chronicle's folder chronicleHome.
func Path(chronicleHome string) string { return filepath.Join(chronicleHome, FileName) }

// A File is a parsed machine file or --var-file: top-level attributes are
// variable values (tfvars syntax), and a machine file may have one
// machine { name, tags } block.
type File struct {
	Path string
	// Values are the top-level attributes, in file order. Their
	// expressions are evaluated by the configuration loader, which knows
	// the functions (secret()) and the variables' types.
	Values []*hcl.Attribute
	// Name and Tags are the machine block's; MachineBlock is nil without one.
	Name string
	Tags []string
	// Ignore are the addresses this machine leaves alone (machine {
	// ignore }): chronicle neither writes nor removes them here, and
	// their differences are not conflicts.
	Ignore       []string
	MachineBlock *hcl.Block
	// Bytes is the source, for diagnostics with source lines.
	Bytes []byte
}

var machineSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "name"}, {Name: "tags"}, {Name: "ignore"}}}

// Read reads and parses the file at path. A missing file is an empty File
// and no diagnostics: a machine without a machine file has defaults.
func Read(sys fsys.Reader, path string) (*File, hcl.Diagnostics) {
	src, err := sys.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Path: path}, nil
	}
	if err != nil {
		return &File{Path: path}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read a variables file", Detail: err.Error()}}
	}
	return Parse(path, src)
}

// Parse parses src, the content of the file at path.
func Parse(path string, src []byte) (*File, hcl.Diagnostics) {
	f := &File{Path: path, Bytes: src}
	file, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		return f, diags
	}
	// hclsyntax.ParseConfig always returns an *hclsyntax.Body; it is read
	// directly because top-level attributes have no schema here.
	body := file.Body.(*hclsyntax.Body)
	for _, a := range body.Attributes {
		f.Values = append(f.Values, a.AsHCLAttribute())
	}
	sortByPosition(f.Values)
	for _, b := range body.Blocks {
		if b.Type != "machine" || len(b.Labels) > 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unexpected block",
				Detail: "A machine file holds variable values (name = value) and one machine { name, tags } block without labels.", Subject: b.DefRange().Ptr()})
			continue
		}
		if f.MachineBlock != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate machine block",
				Detail: "A machine file has at most one machine block; the first is at " + f.MachineBlock.DefRange.String() + ".", Subject: b.DefRange().Ptr()})
			continue
		}
		f.MachineBlock = b.AsHCLBlock()
		diags = append(diags, f.decodeMachine(f.MachineBlock)...)
	}
	return f, diags
}

// decodeMachine reads machine { name, tags }: literal values only, since
// they are needed before any configuration is loaded.
func (f *File) decodeMachine(b *hcl.Block) hcl.Diagnostics {
	content, diags := b.Body.Content(machineSchema)
	if a := content.Attributes["name"]; a != nil {
		v, more := literal(a, cty.String)
		diags = append(diags, more...)
		if !more.HasErrors() {
			f.Name = v.AsString()
		}
	}
	for _, l := range []struct {
		name string
		into *[]string
	}{{"tags", &f.Tags}, {"ignore", &f.Ignore}} {
		name, into := l.name, l.into
		a := content.Attributes[name]
		if a == nil {
			continue
		}
		v, more := literal(a, cty.List(cty.String))
		diags = append(diags, more...)
		if !more.HasErrors() {
			for _, t := range v.AsValueSlice() {
				*into = append(*into, t.AsString())
			}
		}
	}
	return diags
}

func literal(a *hcl.Attribute, ty cty.Type) (cty.Value, hcl.Diagnostics) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	out, err := convert.Convert(v, ty)
	if err == nil && (out.IsNull() || !out.IsWhollyKnown()) {
		err = errors.New("a value is required")
	}
	if err == nil && ty.IsListType() {
		for _, e := range out.AsValueSlice() {
			if e.IsNull() {
				err = errors.New("an element cannot be null")
			}
		}
	}
	if err != nil {
		return cty.NilVal, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid machine " + a.Name,
			Detail: "machine { " + a.Name + " } must be " + ty.FriendlyName() + ": " + err.Error() + ".", Subject: a.Expr.Range().Ptr()}}
	}
	return out, nil
}

func sortByPosition(attrs []*hcl.Attribute) {
	slices.SortFunc(attrs, func(a, b *hcl.Attribute) int { return a.Range.Start.Byte - b.Range.Start.Byte })
}
