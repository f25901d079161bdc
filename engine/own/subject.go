package own

// A Subject is one thing chronicle writes at one place, as a plan sees it:
// an entry in a tool's MCP config, a marked block, a file owned whole, a
// skill's link or copy. Each kind implements it once; the ledger asks it
// what it needs and nothing else.
type Subject interface {
	// What names it in a reason: `cursor's entry "docs"`, `block rule.go
	// in /home/me/AGENTS.md`, `/home/me/.claude/commands/review.md`.
	What() string
	// Seen is what is at its place now, over the projection chronicle
	// owns: the drift hash is taken over that and only that.
	Seen() Seen
	// Diff shows what is at the place against the declared version, over
	// the same projection; "" when the kind shows none (a link).
	Diff() string
}

// Seen is what is at a place now.
type Seen struct {
	// Absent says nothing is there.
	Absent bool
	// Foreign says something of another kind is there: a real folder
	// where a link goes, a link where a file goes. It is never chronicle's.
	Foreign bool
	// Hash is the hash of the projection chronicle owns of what is there
	// (an entry's modelled keys and the extra keys chronicle wrote, a
	// block's body, a file's bytes, a link's target, a copy's tree).
	Hash string
	// Declared says what is there is the declared version.
	Declared bool
	// Bare says the declared text is there without chronicle's markers (a
	// hand-written file a rule was made from).
	Bare bool
	// There says for a person what is at the place, when it is not what
	// chronicle would write: "a real directory is at /x".
	There string
}

// A Record is what the state holds of what chronicle last wrote at a
// place.
type Record struct {
	// Address is the address it is recorded under.
	Address string
	// Hash is the hash of the owned projection as chronicle wrote it (read
	// back).
	Hash string
	// Rendered is the hash of the declaration as it was rendered then: a
	// later plan rewrites only when the declaration renders differently.
	Rendered string
}
