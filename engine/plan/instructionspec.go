package plan

// A BlockSpec is a marked block chronicle keeps in a file it shares with
// the user and other tools: one per file and id, whatever number of links
// and tools want it.
type BlockSpec struct {
	File string `json:"file"`
	ID   string `json:"id"` // rule.go-style, import.agents-md
	// Body is the block's text (LF line ends); empty for a removal.
	Body string `json:"body,omitempty"`
	// Wanted are the addresses that want the block, sorted: the change's
	// address is the first.
	Wanted []string `json:"wanted,omitempty"`
	// RecordOnly says the block is there as declared (an import, or left
	// by an interrupted apply): it is only recorded.
	RecordOnly bool `json:"record_only,omitempty"`
	// Wrap says the file holds the declared text and nothing else, without
	// markers (a hand-written file adopted as one rule): apply puts the
	// markers around it.
	Wrap bool `json:"wrap,omitempty"`
}

// A FileSpec is a rule, command or agent file chronicle owns whole.
type FileSpec struct {
	Tool string `json:"tool"`
	Kind string `json:"kind"` // rule, command or agent
	Name string `json:"name"`
	Path string `json:"path"`
	// Content is the file as the tool's format renders the declaration;
	// empty for a removal.
	Content string `json:"content,omitempty"`
	// Rendered is the hash of Content, recorded to tell a changed
	// declaration from a file taken over as it was.
	Rendered string `json:"rendered,omitempty"`
	// RecordOnly says the file is taken over as it is (adopt, import).
	RecordOnly bool `json:"record_only,omitempty"`
	// Takeover names the address that recorded this file until now (a
	// renamed link): apply records it under the new address instead.
	Takeover string `json:"takeover,omitempty"`
	// Folder is, for a removal, the topmost folder chronicle created to
	// hold the file (state.File.Folder): once the file goes, each folder
	// from the file's up to that one goes too when nothing is left in it.
	Folder string `json:"folder,omitempty"`
}
