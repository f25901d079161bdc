package plan

// A SkillFile is one file of a skill that differs between the central copy
// and the declared source: added, removed, changed, or only its mode
// (an executable bit gained or lost).
type SkillFile struct {
	Path   string `json:"path"`   // slash-separated, relative to the skill
	Change string `json:"change"` // added, removed, modified, mode
	// Binary says the file is not text: no diff is shown for it.
	Binary bool `json:"binary,omitempty"`
	// Executable says whether the declared file is executable (for
	// added, modified and mode changes).
	Executable bool `json:"executable,omitempty"`
	// Link is the target of a symbolic link, for a link.
	Link string `json:"link,omitempty"`
}
