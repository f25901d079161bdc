package claude

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/engine/hashcache"
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
// path and the very same bytes. Two readers want that file's parse in one
// run — the engine's View (for the user and local entries) and the
// approvals of every project's .mcp.json (through provider.Files, the same
// View's bytes) — and a heavy user's is tens of megabytes. Comparing its
// bytes costs a fraction of parsing them (nothing, for the same slice). A parse is a function of the bytes alone, so what is
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
//
// The command, the presence check and every Locations ask for them before
// anything is read through the engine's View, so the file is streamed here
// (jsonfile.Names: a heavy user's file is tens of megabytes, and none of it
// is kept), and the list is given back while the file's stat — size,
// modification time, the file itself — is the one it was read with, when
// that stat is settled by the rule of the skill hash cache (its times a
// timestamp unit and a tick older than the read: any later write changes
// them; hashcache.Settled). A file written just before it was read is read
// again by the next ask. The entries and every edit come from the View's
// bytes and their own parse in any case: this is only the list of folders
// to look at.
func KnownProjects(file string) []string {
	start := time.Now()
	info, err := os.Stat(file)
	if err != nil {
		return nil
	}
	knownMu.Lock()
	last := known
	knownMu.Unlock()
	if last.settled && last.path == file && last.info.Size() == info.Size() && last.info.ModTime().Equal(info.ModTime()) && os.SameFile(last.info, info) {
		return slices.Clone(last.projects)
	}
	projects := streamProjects(file)
	knownMu.Lock()
	known = knownList{path: file, info: info, projects: projects, settled: hashcache.Settled(info, start)}
	knownMu.Unlock()
	return slices.Clone(projects)
}

// A knownList is the last list of projects KnownProjects read.
type knownList struct {
	path     string
	info     os.FileInfo
	projects []string
	// settled: the file's stat tells a later version apart.
	settled bool
}

var (
	knownMu sync.Mutex
	known   knownList
)

// streamProjects reads the projects of the file at path; a file that is
// not standard JSON (comments, trailing commas) is parsed as the View
// parses it.
func streamProjects(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	names, err := jsonfile.Names(bufio.NewReaderSize(f, 256<<10), "projects")
	f.Close()
	if err != nil {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		doc, err := lastUser.parse(path, src)
		if err != nil {
			return nil
		}
		v, _ := doc.Lookup("projects")
		m, _ := v.(map[string]any)
		names = slices.Collect(maps.Keys(m))
	}
	var out []string
	for _, p := range names {
		if filepath.IsAbs(p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
