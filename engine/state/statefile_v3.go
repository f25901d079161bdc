package state

import "sort"

// The records version 3 added: chronicle's marked blocks in shared files
// and the files it owns whole.

type blockV3 struct {
	File        string   `json:"file"`
	ID          string   `json:"id"`
	Hash        string   `json:"hash"`
	WantedBy    []string `json:"wanted_by"`
	FileCreated bool     `json:"file_created,omitempty"`
}

type ownedFileV3 struct {
	Address  string `json:"address"`
	Tool     string `json:"tool"`
	Kind     string `json:"kind"`
	Path     string `json:"path"`
	Hash     string `json:"hash"`
	Rendered string `json:"rendered,omitempty"`
	// FolderCreated is optional within version 3: absent, it is false
	// (files in folders of their own came after the first format 3).
	FolderCreated bool `json:"folder_created,omitempty"`
}

// sortInstructions orders blocks and files so that saving the same state
// twice writes the same bytes.
func sortInstructions(f *fileFormat) {
	sort.SliceStable(f.Blocks, func(i, j int) bool {
		return f.Blocks[i].File+"\x00"+f.Blocks[i].ID < f.Blocks[j].File+"\x00"+f.Blocks[j].ID
	})
	sort.SliceStable(f.Files, func(i, j int) bool { return f.Files[i].Address < f.Files[j].Address })
}
