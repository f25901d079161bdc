package machine

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/secret"
)

// An Edit is one change to the machine file, as chronicle machine --set,
// --tag and --untag ask for it. The file is edited with hclwrite, so its
// comments and layout stay.
type Edit struct {
	// Set is the variable to set to Value; "" for none.
	Set, Value string
	// Secret says that Value must be a secret() reference (the variable is
	// declared sensitive); a name that says it is a secret always must.
	Secret bool
	Tag    []string
	Untag  []string
	// Ignore and Unignore add addresses to machine { ignore } and take
	// them out.
	Ignore   []string
	Unignore []string
	// Name sets machine { name }: chronicle machine --set name=NEW.
	Name string
}

// Apply edits the machine file at path (created when missing, with mode
// 0600: it may name where secrets are) and returns the new content.
func (e Edit) Apply(sys fsys.System, path string) ([]byte, error) {
	src, err := sys.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	out, err := e.edit(path, src)
	if err != nil {
		return nil, err
	}
	if err := sys.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if err := sys.WriteFile(path, out, 0o600); err != nil {
		return nil, err
	}
	return out, sys.Chmod(path, 0o600)
}

// edit returns src with the edit made.
func (e Edit) edit(path string, src []byte) ([]byte, error) {
	// Parse first with hclsyntax, for diagnostics a user can act on.
	f, diags := Parse(path, src)
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", path, diags.Error())
	}
	w, diags := hclwrite.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", path, diags.Error())
	}
	if e.Set != "" {
		tokens, err := valueTokens(e.Set, e.Value, e.Secret)
		if err != nil {
			return nil, err
		}
		w.Body().SetAttributeRaw(e.Set, tokens)
	}
	if len(e.Tag) > 0 || len(e.Untag) > 0 {
		setList(w, "tags", edited(f.Tags, e.Tag, e.Untag))
	}
	if len(e.Ignore) > 0 || len(e.Unignore) > 0 {
		setList(w, "ignore", edited(f.Ignore, e.Ignore, e.Unignore))
	}
	if e.Name != "" {
		if !validName(e.Name) {
			return nil, fmt.Errorf("--set name=%s: a machine name is letters, digits, dots, underscores and hyphens", e.Name)
		}
		machineBlock(w).Body().SetAttributeValue("name", cty.StringVal(e.Name))
	}
	return hclwrite.Format(w.Bytes()), nil
}

// edited returns list with add added (each once) and remove taken out.
func edited(list, add, remove []string) []string {
	out := slices.Clone(list)
	for _, t := range add {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return slices.DeleteFunc(out, func(t string) bool { return slices.Contains(remove, t) })
}

// setList sets machine { name = list }, making the block when there is none.
func setList(w *hclwrite.File, name string, list []string) {
	block := machineBlock(w)
	vals := make([]cty.Value, len(list))
	for i, t := range list {
		vals[i] = cty.StringVal(t)
	}
	if len(vals) == 0 {
		block.Body().SetAttributeValue(name, cty.ListValEmpty(cty.String))
	} else {
		block.Body().SetAttributeValue(name, cty.ListVal(vals))
	}
}

// machineBlock returns the file's machine block, added at the end when
// there is none.
func machineBlock(w *hclwrite.File) *hclwrite.Block {
	block := w.Body().FirstMatchingBlock("machine", nil)
	if block == nil {
		if len(w.Body().Attributes()) > 0 || len(w.Body().Blocks()) > 0 {
			w.Body().AppendNewline()
		}
		block = w.Body().AppendNewBlock("machine", nil)
	}
	return block
}

// validName reports whether a machine name is one word a person can type
// and a file name can hold.
func validName(name string) bool {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return name != ""
}

// valueTokens returns the HCL for --set name=value: value as written when it
// is an HCL literal (a number, a bool, a quoted string, a list, an object)
// or a secret() reference, else value as a string. A name that says it
// holds a secret must be given a secret() reference: the machine file never
// holds a secret in plain text.
func valueTokens(name, value string, mustRef bool) (hclwrite.Tokens, error) {
	mustRef = mustRef || secret.LooksSecret(name)
	if !hclsyntax.ValidIdentifier(name) {
		return nil, fmt.Errorf("--set %s: %q is not a variable name (letters, digits, underscores and hyphens, starting with a letter)", name, name)
	}
	expr, diags := hclsyntax.ParseExpression([]byte(value), "value", hcl.InitialPos)
	literal := !diags.HasErrors() && len(expr.Variables()) == 0 && onlySecretCalls(expr)
	if literal {
		f, diags := hclwrite.ParseConfig([]byte("v = "+value+"\n"), "value", hcl.InitialPos)
		if !diags.HasErrors() {
			if a := f.Body().GetAttribute("v"); a != nil {
				if mustRef && !callsSecret(expr) {
					return nil, plainSecret(name)
				}
				return a.Expr().BuildTokens(nil), nil
			}
		}
	}
	if mustRef {
		return nil, plainSecret(name)
	}
	return hclwrite.TokensForValue(cty.StringVal(value)), nil
}

func plainSecret(name string) error {
	return fmt.Errorf("--set %s: %s is a secret (declared sensitive, or its name says so), and the machine file never holds one in plain text: write a reference, --set '%s=secret(\"env:NAME\")'", name, name, name)
}

// onlySecretCalls reports whether every function call in expr is secret().
func onlySecretCalls(expr hclsyntax.Expression) bool {
	ok := true
	hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if c, is := n.(*hclsyntax.FunctionCallExpr); is && c.Name != "secret" {
			ok = false
		}
		return nil
	})
	return ok
}

func callsSecret(expr hclsyntax.Expression) bool {
	found := false
	hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if c, is := n.(*hclsyntax.FunctionCallExpr); is && c.Name == "secret" {
			found = true
		}
		return nil
	})
	return found
}
