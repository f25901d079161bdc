package jsontool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
	"github.com/chronicle-dev/chronicle/providers/refsyntax"
)

// A Tool is a provider.Provider for a tool that keeps its MCP servers in a
// JSON or JSONC file.
type Tool struct {
	// Syntax is the tool's secret reference syntax; Syntax.Tool is its name.
	Syntax refsyntax.Syntax
	// Locate lists the tool's config files (see provider.Provider).
	Locate func(env provider.Env) []provider.Location
	// Skills lists the tool's skills folders; nil when it has none.
	Skills func(env provider.Env) []provider.SkillDir
	// Decode reads one stored entry into e, whose Name is set and whose
	// Enabled is true beforehand.
	Decode func(f *Fields, e *provider.Entry)
	// Encode returns the fields the tool stores for e. old is the stored
	// entry being replaced, nil when there is none (and for Render).
	Encode func(e provider.Entry, old *Fields, c *Encoder) Object
	// Owned lists every field Encode may write: on Put, an owned field
	// that Encode leaves out is removed; other fields are kept.
	Owned []string
	// Defaults maps owned fields to standard JSON values that mean the
	// same as leaving the field out; such a stored value is kept.
	Defaults map[string]string
	// Enable, when set, corrects Enabled from settings outside the
	// entries (Claude's project approvals, Gemini's exclusions).
	Enable func(loc provider.Location, doc *jsonfile.Document, entries []provider.Entry) error
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.Syntax.Tool }

// Locations lists the tool's config files.
func (t *Tool) Locations(env provider.Env) []provider.Location { return t.Locate(env) }

// SkillDirs lists the tool's skills folders.
func (t *Tool) SkillDirs(env provider.Env) []provider.SkillDir {
	if t.Skills == nil {
		return nil
	}
	return t.Skills(env)
}

// Read returns the entries at loc in file order.
func (t *Tool) Read(loc provider.Location) ([]provider.Entry, error) {
	doc, err := jsonfile.Load(loc.File)
	if err != nil {
		return nil, err
	}
	members, err := doc.Members(loc.KeyPath)
	if err != nil {
		return nil, err
	}
	entries := make([]provider.Entry, 0, len(members))
	for _, m := range members {
		e, err := t.decode(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", loc.File, entryAddress(loc.KeyPath, m.Name), err)
		}
		entries = append(entries, e)
	}
	if t.Enable != nil {
		if err := t.Enable(loc, doc, entries); err != nil {
			return nil, err
		}
	}
	return entries, nil
}

func (t *Tool) decode(m jsonfile.Member) (provider.Entry, error) {
	f, err := t.fields(m.Value)
	if err != nil {
		return provider.Entry{}, err
	}
	e := provider.Entry{Name: m.Name, Enabled: true}
	t.Decode(f, &e)
	if err := f.Err(); err != nil {
		return provider.Entry{}, err
	}
	if e.Canonical, err = jsonfile.Canonical(m.Value); err != nil {
		return provider.Entry{}, err
	}
	return e, nil
}

// fields decodes a stored entry, which must be an object.
func (t *Tool) fields(raw []byte) (*Fields, error) {
	var m map[string]any
	if err := jsonfile.Decode(raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("the entry is not a JSON object")
	}
	return &Fields{m: m, syntax: t.Syntax}, nil
}

// Render returns the entry as the tool would store it anew, indented.
func (t *Tool) Render(e provider.Entry) ([]byte, error) {
	b, err := t.encode(e, nil, false)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func (t *Tool) encode(e provider.Entry, old *Fields, put bool) ([]byte, error) {
	c := &Encoder{syntax: t.Syntax, put: put}
	o := t.Encode(e, old, c)
	if err := c.Err(); err != nil {
		return nil, fmt.Errorf("%s %q: %w", t.Name(), e.Name, err)
	}
	return jsonfile.Marshal(o)
}

// Put writes e at loc, merging with the entry it replaces.
func (t *Tool) Put(loc provider.Location, e provider.Entry) error {
	if _, err := t.encode(e, nil, true); err != nil {
		return err // refuse before touching the file
	}
	return jsonfile.Update(loc.File, filePerm(loc), loc.KeyPath, e.Name, func(old []byte) ([]byte, error) {
		if old == nil {
			return t.encode(e, nil, true)
		}
		f, err := t.fields(old)
		if err != nil {
			return t.encode(e, nil, true) // not an object: replaced whole
		}
		enc, err := t.encode(e, f, true)
		if err != nil {
			return nil, err
		}
		return t.merge(old, enc)
	})
}

// Remove deletes the entry named name at loc.
func (t *Tool) Remove(loc provider.Location, name string) error {
	return jsonfile.Update(loc.File, filePerm(loc), loc.KeyPath, name, func([]byte) ([]byte, error) {
		return nil, nil
	})
}

// filePerm is the mode of a config file Put creates.
func filePerm(loc provider.Location) fs.FileMode {
	if loc.Scope == provider.ScopeProject {
		return 0o644
	}
	return 0o600
}

func entryAddress(keyPath []string, name string) string {
	b, _ := json.Marshal(append(append([]string(nil), keyPath...), name))
	return string(b)
}
