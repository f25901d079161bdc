package jsontool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

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
	// Owned lists every field Encode may write: on Edit, an owned field
	// that Encode leaves out is removed; other fields are kept, except
	// those chronicle wrote through Extra and no longer does (Edit.Drop).
	Owned []string
	// Reads lists the fields Decode reads that Encode never writes (Zed's
	// "source"): modelled, so never read into Extra nor written from it,
	// and kept by an edit.
	Reads []string
	// Attributes maps an owned or read field to the attribute of a service
	// or target block that sets it, where DefaultAttributes does not say
	// it or says it wrong ("includeTools": "enabled_tools"); "" for a field
	// no attribute sets.
	Attributes map[string]string
	// Defaults maps owned fields to standard JSON values that mean the
	// same as leaving the field out; such a stored value is kept.
	Defaults map[string]string
	// Volatile lists fields the tool rewrites on its own (Cline's OAuth
	// tokens): kept on Edit like every field chronicle does not own, but
	// left out of Canonical, so that the tool refreshing them is not drift
	// and what they hold never reaches a plan's diff; modelled like Reads
	// (attribute ""), so never read into Extra nor written from it, and
	// never copied into chronicle's config by adopt.
	Volatile []string
	// Enable, when set, corrects Enabled from settings outside the
	// entries (Claude's project approvals, Gemini's exclusions), read from
	// doc or from the other files files gives.
	Enable func(loc provider.Location, doc *jsonfile.Document, files provider.Files, entries []provider.Entry) error
	// ParseJSON, when set, parses a file in place of jsonfile.Parse (Claude
	// gives back its last parse of ~/.claude.json for the same bytes).
	ParseJSON func(path string, src []byte) (*jsonfile.Document, error)
	// Places lists where the tool reads rules, commands and agents (see
	// provider.Provider.Instructions); nil when it has none.
	Places func(env provider.Env) []provider.Place
	// NotEntries lists member names of the server map that are settings,
	// never servers (OpenCode V2 keeps "servers" and "timeout" under the
	// map V1 keeps its servers in): never read as entries, and an entry
	// of that name is refused.
	NotEntries []string
	// Deny, when set, says where the tool keeps permission rules that deny
	// a server's tools beside a location's file (Location.Deny; Devin's
	// permissions.deny).
	Deny func(loc provider.Location) (provider.DenyList, bool)

	keys   sync.Once // keyMap is worked out from the fields above once
	keyMap map[string]string
}

var _ provider.Provider = (*Tool)(nil)

// Name returns the tool's name.
func (t *Tool) Name() string { return t.Syntax.Tool }

// Locations lists the tool's config files.
func (t *Tool) Locations(env provider.Env) []provider.Location {
	locs := t.Locate(env)
	if t.Deny != nil {
		for i := range locs {
			if d, ok := t.Deny(locs[i]); ok {
				locs[i].Deny = &d
			}
		}
	}
	return locs
}

// SkillDirs lists the tool's skills folders.
func (t *Tool) SkillDirs(env provider.Env) []provider.SkillDir {
	if t.Skills == nil {
		return nil
	}
	return t.Skills(env)
}

// Instructions lists where the tool reads rules, commands and agents.
func (t *Tool) Instructions(env provider.Env) []provider.Place {
	if t.Places == nil {
		return nil
	}
	return t.Places(env)
}

// Parse parses the content of one of the tool's files (nil: a file that
// does not exist yet).
func (t *Tool) Parse(file string, src []byte) (provider.Document, error) {
	parse := jsonfile.Parse
	if t.ParseJSON != nil {
		parse = t.ParseJSON
	}
	doc, err := parse(file, src)
	if err != nil {
		return nil, err
	}
	return t.Document(doc), nil
}

// Document returns doc, already parsed, as one of the tool's files: for a
// provider with two layouts of one file (OpenCode V1 and V2), each a Tool,
// that parses the file once.
func (t *Tool) Document(doc *jsonfile.Document) provider.Document {
	return &document{tool: t, doc: doc}
}

// Render returns the entry as the tool would store it anew, indented.
func (t *Tool) Render(e provider.Entry) ([]byte, error) {
	b, err := t.encode(e, nil, false)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", t.Name(), e.Name, err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// encode returns the fields the tool stores for e as standard JSON (old is
// the stored entry being replaced), or the first thing it cannot express;
// edit is true when the result is to be written rather than shown.
func (t *Tool) encode(e provider.Entry, old *Fields, edit bool) ([]byte, error) {
	c := &Encoder{syntax: t.Syntax, put: edit}
	o := t.Encode(e, old, c)
	if err := c.Err(); err != nil {
		return nil, err
	}
	if err := t.addExtra(&o, e); err != nil {
		return nil, err
	}
	// The object's own encoding, compact already: Marshal would only
	// check and compact it again.
	return o.MarshalJSON()
}

func entryAddress(keyPath []string, name string) string {
	b, _ := json.Marshal(append(append([]string(nil), keyPath...), name))
	return string(b)
}
