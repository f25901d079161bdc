package state

import (
	"crypto/rand"
	"fmt"
	"os"

	"github.com/chronicle-dev/chronicle/engine/service"
)

// A State is what chronicle last wrote on this machine, in memory. Load reads
// it from its file and Save writes it back.
type State struct {
	// Serial counts the saves of this state; Save adds one.
	Serial uint64
	// Lineage identifies this state from its creation on; it never changes.
	Lineage string
	// ChronicleVersion is the version of the chronicle that last saved it.
	ChronicleVersion string
	// ConfigDir is the absolute folder of the configuration last applied.
	ConfigDir string

	Services map[string]service.Service // by service name
	Policies map[string]Policy          // by service name
	Hub      *Hub                       // nil when no hub is declared
	Profiles map[string]Profile         // by profile name
	Chronova *Chronova                  // nil when no chronova block is declared
	Skills   map[string]Skill           // by skill name
	Links    []Link
	Entries  []Entry
	// Blocks and Files are the marked blocks and the whole files chronicle
	// keeps for rules, commands and agents (instructions.go).
	Blocks []Block
	Files  []File
	// Rules are the permission rules chronicle added to lists the user
	// shares (rules.go).
	Rules []Rule
	// Intents are the changes journalled and not yet done, oldest first.
	Intents []Intent
	// Sources maps each file a plan read to its content hash.
	Sources map[string]string
	// Machine is the machine that last applied this state; nil in a state
	// saved before chronicle recorded it (the next apply records it).
	Machine *Machine

	path  string // the file it was loaded from or last saved to
	isNew bool
	// wrote describes the file this state last wrote and wroteData holds
	// its bytes, so that the next save of the same run can tell the file
	// is still its own and keep it as the backup without reading it.
	wrote     os.FileInfo
	wroteData []byte
}

// New returns an empty state with a fresh lineage and serial 0.
func New() *State {
	s := &State{Lineage: newLineage(), isNew: true}
	s.init()
	return s
}

// IsNew reports whether the state has never been saved: no state file
// existed when it was loaded.
func (s *State) IsNew() bool { return s.isNew }

// Path returns the file the state was loaded from or last saved to.
func (s *State) Path() string { return s.path }

// init makes every map usable, so callers can assign without checks.
func (s *State) init() {
	if s.Services == nil {
		s.Services = map[string]service.Service{}
	}
	if s.Policies == nil {
		s.Policies = map[string]Policy{}
	}
	if s.Profiles == nil {
		s.Profiles = map[string]Profile{}
	}
	if s.Skills == nil {
		s.Skills = map[string]Skill{}
	}
	if s.Sources == nil {
		s.Sources = map[string]string{}
	}
}

// newLineage returns a random UUID (version 4) as text.
func newLineage() string {
	var b [16]byte
	rand.Read(b[:]) // never fails: crypto/rand panics rather than return an error
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
