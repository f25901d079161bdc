package inspect

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/tidwall/gjson"

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
	// Elided is how many bytes of the message (or of a note) were left
	// out to keep the record small; each place they were cut says how
	// many (see forLog).
	Elided int `json:"elided,omitempty"`

	// text is the record as /api/log writes it (set when it is sealed).
	text []byte
}

// An Inspector is a ring buffer of the last InspectorSize messages. The
// request that passes a message only keeps it: encoding and masking are
// work for the one who reads the log, not for every request on its way
// through (decision 0055). Each record is sealed once, by the first reader
// that needs it (later readers of it wait for that one): encoded, cut down
// to about recordLimit bytes and masked for a person (forLog). Reading the
// log again is copying bytes, and a read leaves the buffer holding sealed
// records only, small whatever the tools answered (decision 0063).
type Inspector struct {
	mu     sync.Mutex
	buf    [InspectorSize]*entry
	next   uint64
	masker *mask.Masker
	// added is closed when a record is added, for readers waiting for the
	// next one (the console's live log); nil until one waits.
	added chan struct{}
}

// An entry is one kept record, sealed once by the first reader.
type entry struct {
	once sync.Once
	rec  Record
	// encode makes the message: what the hooks kept (AddLazy), or the
	// bytes Add was given. It is dropped once the record is sealed.
	encode func() []byte
}

// NewInspector returns an empty inspector that masks with m (and the
// secret-looking shapes of package mask).
func New(m *mask.Masker) *Inspector { return &Inspector{masker: m} }

// Add keeps one message; the inspector owns msg from now on.
func (in *Inspector) Add(dir, session string, msg []byte) {
	in.add(dir, session, "", func() []byte { return msg })
}

// AddLazy keeps one message that encode makes when the record is sealed:
// what mcp-go hands the hub's hooks is decoded, and encoding it is not
// work for the request. encode must only read values that nobody changes
// after they were sent.
func (in *Inspector) AddLazy(dir, session string, encode func() []byte) {
	in.add(dir, session, "", encode)
}

// Note keeps a line about what the hub did.
func (in *Inspector) Note(session, text string) {
	in.add(DirNote, session, text, nil)
}

func (in *Inspector) add(dir, session, note string, encode func() []byte) {
	e := &entry{rec: Record{Time: time.Now().UTC(), Direction: dir, Session: session, Note: note}, encode: encode}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.next++
	e.rec.Seq = in.next
	in.buf[(in.next-1)%InspectorSize] = e
	if in.added != nil {
		close(in.added)
		in.added = nil
	}
}

// oldest is the seq of the oldest record kept; in.mu is held.
func (in *Inspector) oldest() uint64 {
	return in.next - min(in.next, InspectorSize) + 1
}

// sealed returns e's record, sealing it if nobody has.
func (in *Inspector) sealed(e *entry) Record {
	e.once.Do(func() {
		in.seal(&e.rec, e.encode)
		e.encode = nil
	})
	return e.rec
}

// seal makes r what the log shows: its message encoded, cut down to about
// recordLimit bytes and masked for a person (forLog). A message that is
// not JSON is shown as a note.
func (in *Inspector) seal(r *Record, encode func() []byte) {
	var msg []byte
	if encode != nil {
		msg = encode()
	}
	r.Note, r.Elided = in.boundText(r.Note)
	r.Session = in.masker.Literal(r.Session)
	switch {
	case len(msg) == 0:
	case gjson.ValidBytes(msg):
		r.Message, r.Elided = forLog(in.masker, msg)
	default:
		r.Note, r.Elided = in.boundText(string(msg))
	}
	b, err := json.Marshal(r)
	if err != nil { // gjson read the message as JSON and encoding/json does not
		r.Message = nil
		r.Note, r.Elided = in.boundText(string(msg))
		b, _ = json.Marshal(r)
	}
	var text bytes.Buffer
	_ = json.Indent(&text, b, "  ", "  ")
	r.text = text.Bytes()
}

// boundText returns s cut down and masked as forLog does a string (a
// registered value whole, then the shapes), and how many bytes were left
// out.
func (in *Inspector) boundText(s string) (string, int) {
	if len(s) <= StringLimit {
		return in.masker.Text(in.masker.Literal(s)), 0
	}
	b, left := forLog(in.masker, appendJSONString(nil, s))
	if json.Unmarshal(b, &s) != nil { // not reached: forLog keeps JSON valid
		s = ""
	}
	return s, left
}

// Records returns the kept records, oldest first, sealed.
func (in *Inspector) Records() []Record {
	in.mu.Lock()
	kept := in.after(0)
	in.mu.Unlock()
	return in.records(kept)
}

// after returns the kept entries whose seq is above seq, oldest first;
// in.mu is held.
func (in *Inspector) after(seq uint64) []*entry {
	first := max(in.oldest(), seq+1)
	out := make([]*entry, 0, in.next+1-min(first, in.next+1))
	for s := first; s <= in.next; s++ {
		out = append(out, in.buf[(s-1)%InspectorSize])
	}
	return out
}

// records returns the records of kept, sealed.
func (in *Inspector) records(kept []*entry) []Record {
	out := make([]Record, len(kept))
	for i, e := range kept {
		out[i] = in.sealed(e)
	}
	return out
}

// WriteRecords answers an /api request with records as they were sealed:
// masked once, not again for each reader (writeJSON would), and indented
// as writeJSON indents.
func WriteRecords(w http.ResponseWriter, rs []Record) {
	w.Header().Set("Content-Type", "application/json")
	if len(rs) == 0 {
		_, _ = w.Write([]byte("[]\n"))
		return
	}
	n := 4
	for _, r := range rs {
		n += len(r.text) + 4
	}
	b := make([]byte, 0, n)
	b = append(b, "[\n  "...)
	for i, r := range rs {
		if i > 0 {
			b = append(b, ",\n  "...)
		}
		b = append(b, r.text...)
	}
	b = append(b, "\n]\n"...)
	_, _ = w.Write(b)
}
