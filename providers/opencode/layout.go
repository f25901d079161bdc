package opencode

import (
	"os"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/providers/jsonfile"
	"github.com/chronicle-dev/chronicle/providers/jsontool"
)

// Notes scan shows of OpenCode's files (Location.Note).
const (
	noteV2   = "OpenCode 2 layout: servers under mcp.servers"
	noteV1in = "OpenCode 1 entries under mcp, which OpenCode 2 converts on reading (its mcp.servers entry of the same name wins); chronicle writes mcp.servers here"
)

// openCode is the provider of one tool whose file has two layouts, each a
// jsontool.Tool: OpenCode 1 keeps servers under "mcp", OpenCode 2 under
// "mcp.servers". Which a file has is decided per file by what is there
// (layoutOf), and is its locations' KeyPath: the file is parsed once and
// each location read and written by its layout's Tool.
type openCode struct {
	v1, v2 *jsontool.Tool
}

var _ provider.Provider = (*openCode)(nil)

func (o *openCode) Name() string { return tool }

func (o *openCode) SkillDirs(env provider.Env) []provider.SkillDir { return o.v1.SkillDirs(env) }

func (o *openCode) Instructions(env provider.Env) []provider.Place { return o.v1.Instructions(env) }

// Render shows an entry in OpenCode 1's form, the one plan diffs compare
// alike whatever the layout of the file.
func (o *openCode) Render(e provider.Entry) ([]byte, error) { return o.v1.Render(e) }

// OwnedKeys are the keys both layouts model ("enabled" is OpenCode 1's
// switch, "disabled" OpenCode 2's; each layout reads the other's).
func (o *openCode) OwnedKeys() map[string]string { return o.v1.OwnedKeys() }

// Locations lists, per file, its layout's location first (the one a link
// writes) and, in an OpenCode 2 file, its OpenCode 1 entries, read only.
func (o *openCode) Locations(env provider.Env) []provider.Location {
	var out []provider.Location
	for _, loc := range locations(env) {
		if !isV2(loc.File) {
			out = append(out, loc)
			continue
		}
		v2 := loc
		v2.KeyPath, v2.Note = []string{"mcp", "servers"}, noteV2
		loc.ReadOnly, loc.Note = true, noteV1in
		out = append(out, v2, loc)
	}
	return out
}

// Parse parses the file once and hands it to both layouts.
func (o *openCode) Parse(file string, src []byte) (provider.Document, error) {
	doc, err := jsonfile.Parse(file, src)
	if err != nil {
		return nil, err
	}
	return &document{tools: o, v1: o.v1.Document(doc), v2: o.v2.Document(doc)}, nil
}

// A document is an OpenCode file read in both layouts.
type document struct {
	tools  *openCode
	v1, v2 provider.Document
}

func (d *document) Entries(loc provider.Location, files provider.Files) ([]provider.Entry, error) {
	if v2KeyPath(loc.KeyPath) {
		return d.v2.Entries(loc, files)
	}
	return d.v1.Entries(loc, files)
}

// Edit makes every edit through the layout of its location's key path.
// Edits in both (a server recorded in OpenCode 1's layout, written again
// in OpenCode 2's after the user moved the file) are made OpenCode 1's
// first, then OpenCode 2's on the result.
func (d *document) Edit(edits []provider.Edit) ([]byte, error) {
	var one, two []provider.Edit
	for _, ed := range edits {
		if v2KeyPath(ed.Location.KeyPath) {
			two = append(two, ed)
		} else {
			one = append(one, ed)
		}
	}
	switch {
	case len(two) == 0:
		return d.v1.Edit(one)
	case len(one) == 0:
		return d.v2.Edit(two)
	}
	src, err := d.v1.Edit(one)
	if err != nil {
		return nil, err
	}
	doc, err := jsonfile.Parse(two[0].Location.File, src)
	if err != nil {
		return nil, err
	}
	return d.tools.v2.Document(doc).Edit(two)
}

func v2KeyPath(kp []string) bool { return len(kp) == 2 && kp[0] == "mcp" && kp[1] == "servers" }

// isV2 reports whether file is in OpenCode 2's layout: a file in a
// project's .opencode folder (which only OpenCode 2 reads), or one whose
// "mcp" holds a "servers" object. A file that cannot be read or parsed is
// taken as OpenCode 1's: reading it reports the error.
func isV2(file string) bool {
	if filepath.Base(filepath.Dir(file)) == ".opencode" {
		return true
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	doc, err := jsonfile.ParseOnly(file, src, []string{"mcp", "servers"})
	if err != nil {
		return false
	}
	v, _ := doc.Lookup("mcp", "servers")
	_, ok := v.(map[string]any)
	return ok
}
