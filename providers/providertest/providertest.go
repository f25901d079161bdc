package providertest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/chronicle-dev/chronicle/engine/fsys"
	"github.com/chronicle-dev/chronicle/engine/provider"
	"github.com/chronicle-dev/chronicle/engine/toolfile"
)

// NewFileMode is the mode Apply gives a file it creates.
const NewFileMode fs.FileMode = 0o600

// Read returns the entries at loc as a fresh View reads them: a file that
// does not exist is provider.ErrNotConfigured, one that does not parse a
// *provider.ParseError.
func Read(p provider.Provider, loc provider.Location) ([]provider.Entry, error) {
	return toolfile.NewView(fsys.OS{}).Entries(p, loc)
}

// Edit returns the bytes p's Edit gives for file with edits made, without
// writing them; nil when the file does not exist and stays so.
func Edit(p provider.Provider, file string, edits ...provider.Edit) ([]byte, error) {
	doc, _, err := toolfile.NewView(fsys.OS{}).Document(p, file)
	if err != nil {
		return nil, err
	}
	return doc.Edit(edits)
}

// Apply makes edits in file and installs the result, creating the file
// (and its folder) when it is missing. A file whose content Edit leaves as
// it was is not written.
func Apply(p provider.Provider, file string, edits ...provider.Edit) error {
	view := toolfile.NewView(fsys.OS{})
	doc, f, err := view.Document(p, file)
	if err != nil {
		return err
	}
	out, err := doc.Edit(edits)
	if err != nil {
		return err
	}
	if f.Exists == (out != nil) && bytes.Equal(out, f.Data) {
		return nil
	}
	if !f.Exists {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
	}
	// The test owns the file: whatever it holds now is what is replaced.
	now, err := fsys.OS{}.ReadVersion(file)
	if err != nil {
		return err
	}
	_, err = fsys.OS{}.Install(file, out, NewFileMode, now)
	return err
}

// Put sets e at loc in one Edit of its file and installs the result.
func Put(p provider.Provider, loc provider.Location, e provider.Entry) error {
	return Apply(p, loc.File, Set(loc, e))
}

// Remove removes the entry name at loc in one Edit of its file and installs
// the result.
func Remove(p provider.Provider, loc provider.Location, name string) error {
	return Apply(p, loc.File, Unset(loc, name))
}

// Set is the edit that sets e at loc.
func Set(loc provider.Location, e provider.Entry) provider.Edit {
	return provider.Edit{Location: loc, Name: e.Name, Entry: &e}
}

// Unset is the edit that removes the entry name at loc.
func Unset(loc provider.Location, name string) provider.Edit {
	return provider.Edit{Location: loc, Name: name}
}
