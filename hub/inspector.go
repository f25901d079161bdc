package hub

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/chronicle-dev/chronicle/engine/mask"
)

// Directions of an inspector record.
const (
	DirRecv    = "recv"    // a message from a client
	DirSend    = "send"    // a message to a client
	DirBlocked = "blocked" // a call refused by policy
	DirNote    = "note"    // something the hub did (reload, restart, …)
)

// InspectorSize is how many messages the inspector keeps.
const InspectorSize = 300

// A Record is one message the inspector kept.
type Record struct {
	Seq       uint64          `json:"seq"`
	Time      time.Time       `json:"time"`
	Direction string          `json:"direction"`
	Session   string          `json:"session,omitempty"`
	Message   json.RawMessage `json:"message,omitempty"`
	Note      string          `json:"note,omitempty"`
}

// An Inspector is a ring buffer of the last InspectorSize messages. It keeps
// them as they were and masks them when they are read: masking is work for
// the one who reads the log, not for every request on its way through.
type Inspector struct {
	mu     sync.Mutex
	buf    [InspectorSize]Record
	next   uint64
	masker *mask.Masker
}

// NewInspector returns an empty inspector that masks with m (and the
// secret-looking shapes of package mask).
func NewInspector(m *mask.Masker) *Inspector { return &Inspector{masker: m} }

// Add keeps one message; the inspector owns msg from now on.
func (in *Inspector) Add(dir, session string, msg []byte) {
	in.add(Record{Time: time.Now().UTC(), Direction: dir, Session: session, Message: msg})
}

// Note keeps a line about what the hub did.
func (in *Inspector) Note(session, text string) {
	in.add(Record{Time: time.Now().UTC(), Direction: DirNote, Session: session, Note: text})
}

func (in *Inspector) add(r Record) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.next++
	r.Seq = in.next
	in.buf[(in.next-1)%InspectorSize] = r
}

// Records returns the kept messages, oldest first, masked for a person
// (Masker.Text on every string). A message that is not JSON is shown as a
// note.
func (in *Inspector) Records() []Record {
	in.mu.Lock()
	n := in.next
	if n > InspectorSize {
		n = InspectorSize
	}
	out := make([]Record, 0, n)
	for i := in.next - n; i < in.next; i++ {
		out = append(out, in.buf[i%InspectorSize])
	}
	in.mu.Unlock()
	for i := range out {
		r := &out[i]
		r.Note = in.masker.Text(r.Note)
		if len(r.Message) == 0 {
			continue
		}
		if json.Valid(r.Message) {
			r.Message = forPerson(in.masker, r.Message)
		} else {
			r.Note, r.Message = in.masker.Text(string(r.Message)), nil
		}
	}
	return out
}
