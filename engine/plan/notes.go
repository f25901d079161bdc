package plan

// The severities of a Diagnostic.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	// SeverityNote says what this machine leaves out and why: information
	// for the user, never a problem.
	SeverityNote = "note"
)

// note adds a note: what the plan leaves out on this machine, and why.
func (b *builder) note(address, summary, detail string, args ...any) {
	b.diag(SeverityNote, address, summary, detail, args...)
}
