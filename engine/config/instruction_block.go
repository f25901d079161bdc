package config

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/chronicle-dev/chronicle/engine/instruction"
	"github.com/chronicle-dev/chronicle/engine/markers"
)

// An Instruction is a rule, command or agent block: text chronicle gives the
// tools a link names.
type Instruction struct {
	instruction.Instruction
	// Source is the absolute file the text was read from; empty when the
	// block holds it in content.
	Source string

	DeclRange hcl.Range
}

// The attributes of each kind of block besides source and content, and
// the front matter keys a source may set them with.
var instructionAttrs = map[string][]frontKey{
	instruction.Rule:    {{"description", "description"}, {"globs", "globs"}},
	instruction.Command: {{"description", "description"}, {"argument_hint", "argument-hint"}},
	instruction.Agent:   {{"description", "description"}, {"tools", "tools"}, {"model", "model"}},
}

// A frontKey pairs a block attribute with the front matter key that may
// set it in the text.
type frontKey struct{ attr, key string }

func instructionSchema(kind string) *hcl.BodySchema {
	s := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "source"}, {Name: "content"}}}
	for _, k := range instructionAttrs[kind] {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: k.attr})
	}
	return s
}

// decodeInstruction decodes a rule, command or agent block. Its text comes
// from source (a file beside the configuration) or content; a front matter
// block at the top of the text may set the block's attributes, and one that
// sets an attribute the block sets otherwise is an error.
func (l *loader) decodeInstruction(kind string, inst instance) {
	d := l.decoderFor(inst)
	defer l.finish(d)
	b := inst.block
	content, diags := inst.body.Content(instructionSchema(kind))
	d.diags = append(d.diags, diags...)
	a := content.Attributes
	in := &Instruction{Instruction: instruction.Instruction{Kind: kind, Name: inst.name}, DeclRange: b.DefRange}
	defer func() { l.cfg.addInstruction(in) }()

	var text []byte
	var textRange hcl.Range
	switch {
	case a["source"] != nil && a["content"] != nil:
		d.errorf(b.DefRange, "Both source and content", "The %s %q sets both source (a file) and content (the text itself). Keep one.", kind, in.Name)
		return
	case a["source"] == nil && a["content"] == nil:
		d.errorf(b.DefRange, "Missing source or content", "The %s %q needs source (a file beside the configuration, e.g. \"./%ss/%s.md\") or content (the text itself).", kind, in.Name, kind, in.Name)
		return
	case a["source"] != nil:
		path, ok := d.path(a["source"])
		if !ok {
			return
		}
		in.Source, textRange = path, a["source"].Expr.Range()
		if text, ok = readInstruction(d, textRange, kind, in.Name, path); !ok {
			return
		}
	default:
		s, ok := d.str(a["content"])
		if !ok {
			return
		}
		text, textRange = []byte(s), a["content"].Expr.Range()
		if len(text) > instruction.MaxBody {
			d.errorf(textRange, "Text too large", "The content of %s %q holds %d bytes; an instruction holds at most 1 MiB.", kind, in.Name, len(text))
			return
		}
	}
	fm, body, err := instruction.Split(text)
	if err != nil {
		d.errorf(textRange, "Invalid front matter", "The text of %s %q: %s.", kind, in.Name, err)
		return
	}
	in.Body = body
	if in.Body == "" {
		d.errorf(textRange, "Empty "+kind, "The %s %q has no text after its front matter.", kind, in.Name)
	}
	if line, ok := markers.FindMarker(in.Body); ok {
		d.errorf(textRange, "Marker line in the text", "Line %d of the text of %s %q is a chronicle marker (%s); chronicle uses those lines to find its blocks in the tools' files, so a text may not hold one. Indent it or change it.", line, kind, in.Name, strings.TrimSpace(strings.Split(in.Body, "\n")[line-1]))
	}
	l.instructionAttrs(d, in, a, fm, textRange)
	if kind == instruction.Agent && in.Description == "" {
		d.errorf(b.DefRange, "Agent without a description", "The agent %q needs a description: the tools decide when to hand a task to an agent by it. Set description, or a description line in the front matter of its text.", in.Name)
	}
}

// instructionAttrs sets the kind's attributes from the block and the front
// matter, refusing a front matter key that contradicts the block.
func (l *loader) instructionAttrs(d *decoder, in *Instruction, a hcl.Attributes, fm instruction.FrontMatter, textRange hcl.Range) {
	known := map[string]bool{}
	for _, k := range instructionAttrs[in.Kind] {
		known[k.key] = true
		var fromBlock, fromText []string
		var blockSet, textSet bool
		var err error
		list := k.attr == "globs" || k.attr == "tools"
		if list {
			fromText, textSet, err = fm.List(k.key)
		} else {
			var s string
			s, textSet, err = fm.String(k.key)
			fromText = []string{s}
		}
		if err != nil {
			d.errorf(textRange, "Invalid front matter", "The text of %s %q: %s.", in.Kind, in.Name, err)
			continue
		}
		if attr := a[k.attr]; attr != nil {
			if list {
				fromBlock, blockSet = d.strList(attr)
				for _, s := range fromBlock {
					if strings.TrimSpace(s) == "" {
						d.errorf(attr.Expr.Range(), "Empty item", "The list %q of %s %q holds an empty string.", k.attr, in.Kind, in.Name)
					}
				}
			} else {
				var s string
				s, blockSet = d.str(attr)
				fromBlock = []string{s}
			}
			if blockSet && textSet && !slices.Equal(fromBlock, fromText) {
				d.errorf(attr.Expr.Range(), "Front matter contradicts the block",
					"The %s %q sets %s to %s, but the front matter of its text sets %s to %s. Keep one of them (or make them equal).",
					in.Kind, in.Name, k.attr, shownAttr(fromBlock, list), k.key, shownAttr(fromText, list))
				continue
			}
		}
		value := fromText
		if blockSet {
			value = fromBlock
		}
		if !blockSet && !textSet {
			continue
		}
		switch k.attr {
		case "description":
			in.Description = value[0]
		case "globs":
			in.Globs = value
		case "argument_hint":
			in.ArgumentHint = value[0]
		case "tools":
			in.Tools = value
		case "model":
			in.Model = value[0]
		}
	}
	if in.Kind == instruction.Agent {
		known["name"] = true
		if name, ok, _ := fm.String("name"); ok && name != in.Name {
			d.errorf(textRange, "Front matter contradicts the block", "The front matter of agent %q names it %q; the block's label is its name. Remove the name line or make it %q.", in.Name, name, in.Name)
		}
	}
	var unknown []string
	for key := range fm {
		if !known[key] {
			unknown = append(unknown, key)
		}
	}
	sort.Strings(unknown)
	for _, key := range unknown {
		d.diags = append(d.diags, &hcl.Diagnostic{
			Severity: hcl.DiagWarning, Summary: "Front matter key not carried",
			Detail:  fmt.Sprintf("The front matter of %s %q sets %q, which chronicle does not carry to the tools; it is left out of what they get.", in.Kind, in.Name, key),
			Subject: textRange.Ptr(),
		})
	}
}

func shownAttr(v []string, list bool) string {
	if !list {
		return fmt.Sprintf("%q", v[0])
	}
	return fmt.Sprintf("%q", v)
}

// readInstruction reads an instruction's source file: it must exist, be a
// regular file of at most 1 MiB, and be UTF-8 text.
func readInstruction(d *decoder, rng hcl.Range, kind, name, path string) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		d.errorf(rng, "Cannot read the "+kind, "The source of %s %q, %s, cannot be read: %s.", kind, name, path, unwrapPathError(err))
		return nil, false
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && !info.Mode().IsRegular() {
		d.errorf(rng, "Source is not a file", "The source of %s %q, %s, is not a regular file.", kind, name, path)
		return nil, false
	}
	src, err := io.ReadAll(io.LimitReader(f, instruction.MaxBody+1))
	if err != nil {
		d.errorf(rng, "Cannot read the "+kind, "The source of %s %q, %s, cannot be read: %s.", kind, name, path, err)
		return nil, false
	}
	if len(src) > instruction.MaxBody {
		d.errorf(rng, "Source too large", "The source of %s %q, %s, holds more than 1 MiB; an instruction holds at most that.", kind, name, path)
		return nil, false
	}
	if !utf8.Valid(src) {
		pos := firstInvalidUTF8(src)
		d.errorf(rng, "Source is not UTF-8 text", "The source of %s %q, %s, has bytes that are not UTF-8 text at line %d, column %d.", kind, name, path, pos.Line, pos.Column)
		return nil, false
	}
	if bytes.IndexByte(src, 0) >= 0 {
		d.errorf(rng, "Source is not text", "The source of %s %q, %s, holds a NUL byte: is it a binary file?", kind, name, path)
		return nil, false
	}
	return src, true
}

// addInstruction keeps a decoded block in the list of its kind.
func (c *Config) addInstruction(in *Instruction) {
	switch in.Kind {
	case instruction.Rule:
		c.Rules = append(c.Rules, in)
	case instruction.Command:
		c.Commands = append(c.Commands, in)
	case instruction.Agent:
		c.Agents = append(c.Agents, in)
	}
}

// Instructions returns the blocks of a kind, in declaration order.
func (c *Config) Instructions(kind string) []*Instruction {
	switch kind {
	case instruction.Rule:
		return c.Rules
	case instruction.Command:
		return c.Commands
	case instruction.Agent:
		return c.Agents
	}
	return nil
}

// Instruction returns the block of a kind with the given name, or nil.
func (c *Config) Instruction(kind, name string) *Instruction {
	for _, in := range c.Instructions(kind) {
		if in.Name == name {
			return in
		}
	}
	return nil
}

// InstructionNames returns the names of the blocks of a kind.
func (c *Config) InstructionNames(kind string) []string {
	var out []string
	for _, in := range c.Instructions(kind) {
		out = append(out, in.Name)
	}
	return out
}
