package claude

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/chronicle-dev/chronicle/providers/jsonfile"
)

// userReads are the parts of ~/.claude.json chronicle reads: the user's
// servers, and each project's local servers and the servers turned off in
// it. The rest — each project's history above all — is never parsed.
var userReads = [][]string{
	{"mcpServers"},
	{"projects", "*", "mcpServers"},
	{"projects", "*", "disabledMcpServers"},
	{"projects", "*", "disabledMcpjsonServers"},
}

// A userDoc holds the last parse of ~/.claude.json, given back for the same
// path and the very same bytes. Four readers want that file in one run —
// the command (for the projects to scan, KnownProjects), Locations (the
// same), the engine's View (for the user and local entries) and the
// approvals of every project's .mcp.json (through provider.Files) — and a
// heavy user's is tens of megabytes. Comparing its bytes costs a fraction
// of parsing them. A parse is a function of the bytes alone, so what is
// given back is never stale, unlike a cache keyed on the file's size and
// time, and one for the whole process (lastUser) is as right as one per
// provider value.
type userDoc struct {
	mu  sync.Mutex
	doc *jsonfile.Document
}

// lastUser is the process's last parse of a ~/.claude.json.
var lastUser userDoc

// parse returns src, the content of the file at path, parsed.
func (u *userDoc) parse(path string, src []byte) (*jsonfile.Document, error) {
	u.mu.Lock()
	last := u.doc
	u.mu.Unlock()
	if last != nil && src != nil && last.Path() == path {
		if bytes.Equal(last.Bytes(), src) {
			return last, nil
		}
		if edited := last.Edited(src); edited != nil {
			// What apply installs: the parse that verified the edit.
			u.mu.Lock()
			u.doc = edited
			u.mu.Unlock()
			return edited, nil
		}
	}
	doc, err := jsonfile.ParseOnly(path, src, userReads...)
	if err != nil || src == nil {
		return doc, err
	}
	u.mu.Lock()
	u.doc = doc
	u.mu.Unlock()
	return doc, nil
}

// KnownProjects returns the projects the ~/.claude.json at file holds
// entries for (its keys of "projects" that are absolute paths), sorted; none
// when the file cannot be read or parsed: reading its entries reports that.
func KnownProjects(file string) []string {
	doc := lastUser.unchanged(file)
	if doc == nil {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil
		}
		if doc, err = lastUser.parse(file, src); err != nil {
			return nil
		}
	}
	known, _ := doc.Lookup("projects")
	m, _ := known.(map[string]any)
	var out []string
	for p := range m {
		if filepath.IsAbs(p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// unchanged returns the last parse when the file at path still holds its
// bytes, compared a piece at a time: the command and Locations both ask
// for the projects, and a second whole copy of a large file only to find
// it the same would be garbage at once.
func (u *userDoc) unchanged(path string) *jsonfile.Document {
	u.mu.Lock()
	last := u.doc
	u.mu.Unlock()
	if last == nil || last.Path() != path || last.Bytes() == nil {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	want := last.Bytes()
	piece := make([]byte, 256<<10)
	for {
		n, err := f.Read(piece)
		if n > len(want) || !bytes.Equal(piece[:n], want[:n]) {
			return nil
		}
		want = want[n:]
		switch {
		case err == io.EOF:
			if len(want) > 0 {
				return nil
			}
			return last
		case err != nil:
			return nil
		}
	}
}
