package state

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
)

// fileV3 is the state file format versions 1 to 3 wrote: four lists of
// four shapes (links, entries, blocks, files) and a list of the tool files
// chronicle created, with entries hashed whole. Reading one upgrades it to
// version 4 (upgradeV3).
type fileV3 struct {
	Version          int                  `json:"version"`
	Serial           uint64               `json:"serial"`
	Lineage          string               `json:"lineage"`
	ChronicleVersion string               `json:"chronicle_version,omitempty"`
	ConfigDir        string               `json:"config_dir,omitempty"`
	Services         map[string]serviceV1 `json:"services"`
	Policies         map[string]policyV1  `json:"policies"`
	Hub              *hubV1               `json:"hub,omitempty"`
	Profiles         map[string]profileV1 `json:"profiles,omitempty"`
	Chronova         *chronovaV1          `json:"chronova,omitempty"`
	Skills           map[string]skillV1   `json:"skills"`
	Links            []linkV1             `json:"links"`
	Entries          []entryV1            `json:"entries"`
	Blocks           []blockV3            `json:"blocks,omitempty"` // version 3
	Files            []ownedFileV3        `json:"files,omitempty"`  // version 3
	Journal          []intentV1           `json:"journal"`
	Sources          map[string]string    `json:"sources"`
	CreatedFiles     []string             `json:"created_files,omitempty"`
	Machine          *machineV3           `json:"machine,omitempty"`
}

type linkV1 struct {
	Address string `json:"address"`
	Tool    string `json:"tool"`
	Path    string `json:"path"`
	Target  string `json:"target"`
	Mode    string `json:"mode"`
	Hash    string `json:"hash,omitempty"`
}

type entryV1 struct {
	Address  string   `json:"address"`
	Tool     string   `json:"tool"`
	Scope    string   `json:"scope,omitempty"`
	Project  string   `json:"project,omitempty"`
	File     string   `json:"file"`
	KeyPath  []string `json:"key_path"`
	Name     string   `json:"name"`
	Hash     string   `json:"hash"`
	Rendered string   `json:"rendered,omitempty"`
	Extra    []string `json:"extra,omitempty"`
}

type blockV3 struct {
	File        string   `json:"file"`
	ID          string   `json:"id"`
	Hash        string   `json:"hash"`
	WantedBy    []string `json:"wanted_by"`
	FileCreated bool     `json:"file_created,omitempty"`
}

type ownedFileV3 struct {
	Address       string `json:"address"`
	Tool          string `json:"tool"`
	Kind          string `json:"kind"`
	Path          string `json:"path"`
	Hash          string `json:"hash"`
	Rendered      string `json:"rendered,omitempty"`
	FolderCreated bool   `json:"folder_created,omitempty"`
}

// readV3 reads a version 3 file (or, through readV2 and readV1, an older
// one) as version 4.
func readV3(data []byte) (*fileFormat, error) {
	f, err := decodeV3(data)
	if err != nil {
		return nil, err
	}
	return upgradeV3(f), nil
}

func decodeV3(data []byte) (*fileV3, error) {
	var f fileV3
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, err
	}
	if f.Lineage == "" {
		return nil, fmt.Errorf("it has no lineage")
	}
	return &f, nil
}

// readV2 reads a version 2 file: the fields of version 3 without blocks and
// files (chronicle kept none then).
func readV2(data []byte) (*fileFormat, error) {
	f, err := decodeV2(data)
	if err != nil {
		return nil, err
	}
	return upgradeV3(f), nil
}

func decodeV2(data []byte) (*fileV3, error) {
	f, err := decodeV3(data)
	if err != nil {
		return nil, err
	}
	if len(f.Blocks) > 0 || len(f.Files) > 0 {
		return nil, fmt.Errorf("it has blocks or files, which version 2 never had: was its version edited by hand?")
	}
	return f, nil
}

// readV1 reads a version 1 file: the fields are those of version 2, but it
// may hold secrets in plain text (a service's env under GITHUB_TOKEN, a
// password in a URL, the hub token), which are scrubbed.
func readV1(data []byte) (*fileFormat, error) {
	f, err := decodeV2(data)
	if err != nil {
		return nil, err
	}
	scrub(f)
	return upgradeV3(f), nil
}

// upgradeV3 turns the four lists of version 3 into version 4's records:
// an entry keeps its whole hash, marked as such, until it is written again
// (own.EntryRecord compares it without a false drift); the list of created
// tool files becomes the flag of the entries they hold, and a block's
// file_created and a file's folder_created the one flag created.
func upgradeV3(f *fileV3) *fileFormat {
	created := map[string]bool{}
	for _, p := range f.CreatedFiles {
		created[p] = true
	}
	s := &State{}
	for _, e := range f.Entries {
		s.Entries = append(s.Entries, Entry{Address: e.Address, Tool: e.Tool, Scope: e.Scope, Project: e.Project, File: e.File,
			KeyPath: e.KeyPath, Name: e.Name, Hash: e.Hash, Rendered: e.Rendered, Extra: e.Extra,
			Created: created[e.File], WholeHash: true})
	}
	for _, b := range f.Blocks {
		s.Blocks = append(s.Blocks, Block{File: b.File, ID: b.ID, Hash: b.Hash, WantedBy: slices.Clone(b.WantedBy), Created: b.FileCreated})
	}
	for _, o := range f.Files {
		folder := ""
		if o.FolderCreated { // the item's own folder
			folder = filepath.Dir(o.Path)
		}
		s.Files = append(s.Files, File{Address: o.Address, Tool: o.Tool, Kind: o.Kind, Path: o.Path, Hash: o.Hash, Rendered: o.Rendered, Folder: folder})
	}
	for _, l := range f.Links {
		s.Links = append(s.Links, Link(l))
	}
	return &fileFormat{
		Version: currentVersion, Serial: f.Serial, Lineage: f.Lineage, ChronicleVersion: f.ChronicleVersion, ConfigDir: f.ConfigDir,
		Services: f.Services, Policies: f.Policies, Hub: f.Hub, Profiles: f.Profiles, Chronova: f.Chronova, Skills: f.Skills,
		Records: records(s), Journal: f.Journal, Sources: f.Sources, Machine: f.Machine,
	}
}
