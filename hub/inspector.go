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

	// encode makes Message when the record is read (see AddLazy).
	encode func() []byte
}

// An Inspector is a ring buffer of the last InspectorSize messages. It keeps
// them as they were and masks them when they are read: masking is work for
// the one who reads the log, not for every request on its way through.
type Inspector struct {
	mu     sync.Mutex
	buf    [InspectorSize]Record
	next   uint64
	masker *mask.Masker
	// added is closed when a record is added, for readers waiting for the
	// next one (the console's live log); nil until one waits.
	added chan struct{}
}

// NewInspector returns an empty inspector that masks with m (and the
// secret-looking shapes of package mask).
func NewInspector(m *mask.Masker) *Inspector { return &Inspector{masker: m} }

// Add keeps one message; the inspector owns msg from now on.
func (in *Inspector) Add(dir, session string, msg []byte) {
	in.add(Record{Time: time.Now().UTC(), Direction: dir, Session: session, Message: msg})
}

// AddLazy keeps one message that encode makes when the record is read:
// what mcp-go hands the hub's hooks is decoded, and encoding it for the log
// is work for the one who reads the log, not for the request. encode must
// only read values that nobody changes after they were sent.
func (in *Inspector) AddLazy(dir, session string, encode func() []byte) {
	in.add(Record{Time: time.Now().UTC(), Direction: dir, Session: session, encode: encode})
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
	if in.added != nil {
		close(in.added)
		in.added = nil
	}
}

// Records returns the kept messages, oldest first, masked for a person
// (Masker.Text on every string). A message that is not JSON is shown as a
// note.
func (in *Inspector) Records() []Record {
	in.mu.Lock()
	out := in.after(0)
	in.mu.Unlock()
	return in.masked(out)
}

// after returns the kept records whose Seq is above seq, oldest first;
// in.mu is held.
func (in *Inspector) after(seq uint64) []Record {
	n := in.next
	if n > InspectorSize {
		n = InspectorSize
	}
	first := max(in.next-n, seq)
	out := make([]Record, 0, in.next-min(first, in.next))
	for i := first; i < in.next; i++ {
		out = append(out, in.buf[i%InspectorSize])
	}
	return out
}

// masked masks records for a person (Masker.Text on every string); a
// message that is not JSON is shown as a note.
func (in *Inspector) masked(out []Record) []Record {
	for i := range out {
		r := &out[i]
		r.Note = in.masker.Text(r.Note)
		if r.encode != nil {
			r.Message, r.encode = r.encode(), nil
		}
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
