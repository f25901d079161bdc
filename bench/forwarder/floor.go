package main

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A floor is the forwarder with -floor: on each call it also does what
// the issues ask of any hub beyond forwarding, each piece the plainest
// way, so that bench/hub.sh can tell the cost of the hub's duties from
// the cost of how the hub is built:
//   - the loopback guard: Host names the listener, and no page's Origin
//     (DNS rebinding);
//   - the bearer token (FORWARDER_TOKEN, which -floor needs), compared in
//     constant time (issue 29, item 5);
//   - a session per Mcp-Session-Id: looked up, its protocol version
//     checked, its last use noted (a full hub ends the session idle
//     longest);
//   - the tool's name looked up in a catalogue of prefixed names, its
//     policy checked, and the upstream's own name sent on;
//   - the upstream's id for the call noted under the client's, for a
//     notifications/cancelled, and a timeout armed;
//   - the answer's secrets masked, and the request and the answer kept in
//     a ring for the inspector (as the hub keeps them: the bytes, encoded
//     only when read);
//   - the answer under the client's id.
type floor struct {
	host  string               // the listener's host:port
	token string               // "Bearer " + FORWARDER_TOKEN
	tools map[string]floorTool // by the name clients call; read only

	mu       sync.Mutex // guards sessions
	sessions map[string]*floorSession

	secrets [][]byte // values to mask in answers (none in the benchmark's config, as in the hub's)

	log struct {
		sync.Mutex
		seq  uint64
		ring [1000]floorRecord
	}
}

type floorSession struct {
	id       string
	version  string
	lastUsed atomic.Int64 // Unix nanoseconds

	mu    sync.Mutex
	calls map[string]int64 // the client's request id → the upstream's
}

type floorTool struct {
	name    string // the upstream's
	allowed bool
}

type floorRecord struct {
	seq       uint64
	at        time.Time
	direction string
	session   string
	message   []byte
}

// newFloor returns the floor that asks clients for token.
func newFloor(token string) (*floor, error) {
	if token == "" {
		return nil, errors.New("-floor needs the token its clients send, in FORWARDER_TOKEN")
	}
	return &floor{
		token:    "Bearer " + token,
		sessions: map[string]*floorSession{},
		tools:    map[string]floorTool{"fast__echo": {name: "echo", allowed: true}},
	}, nil
}

// handler serves /mcp: newID gives a request its upstream id, and call
// sends it under that id and returns the upstream's answer line.
func (f *floor) handler(newID func() int64, call func(id int64, method string, params json.RawMessage) []byte) http.Handler {
	var sessions atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Host != f.host || (r.Header.Get("Origin") != "" && r.Header.Get("Origin") != "http://"+f.host) {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte(f.token)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="chronicle"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodPost {
			return
		}
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") || !strings.Contains(r.Header.Get("Accept"), "application/json") {
			http.Error(w, "not acceptable", http.StatusNotAcceptable)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage
			Method string
			Params json.RawMessage
		}
		if json.Unmarshal(body, &m) != nil {
			http.Error(w, "parse error", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if m.Method == "initialize" {
			s := &floorSession{id: "floor-" + strconv.FormatInt(sessions.Add(1), 10), version: "2025-11-25", calls: map[string]int64{}}
			s.lastUsed.Store(time.Now().UnixNano())
			f.mu.Lock()
			f.sessions[s.id] = s
			f.mu.Unlock()
			w.Header().Set("Mcp-Session-Id", s.id)
			writeInitialized(w, m.ID, "floor")
			return
		}
		f.mu.Lock()
		s := f.sessions[r.Header.Get("Mcp-Session-Id")]
		f.mu.Unlock()
		if s == nil {
			http.Error(w, "unknown session", http.StatusNotFound)
			return
		}
		if r.Header.Get("MCP-Protocol-Version") != s.version {
			http.Error(w, "unsupported protocol version", http.StatusBadRequest)
			return
		}
		s.lastUsed.Store(time.Now().UnixNano())
		if len(m.ID) == 0 {
			w.WriteHeader(http.StatusAccepted) // a notification or a response
			return
		}
		f.record("in", s.id, body)
		params := m.Params
		if m.Method == "tools/call" {
			var p struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
				Meta      json.RawMessage `json:"_meta"`
			}
			_ = json.Unmarshal(m.Params, &p)
			t, ok := f.tools[p.Name]
			if !ok || !t.allowed {
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"message":"unknown tool"}}`, m.ID)
				return
			}
			if len(p.Arguments) == 0 {
				p.Arguments = json.RawMessage("{}")
			}
			params = fmt.Appendf(nil, `{"name":%q,"arguments":%s}`, t.name, p.Arguments)
		}
		id := newID()
		s.mu.Lock()
		s.calls[string(m.ID)] = id
		s.mu.Unlock()
		timeout := time.AfterFunc(time.Minute, func() {}) // a hub's would cancel the call
		line := call(id, m.Method, params)
		timeout.Stop()
		s.mu.Lock()
		delete(s.calls, string(m.ID))
		s.mu.Unlock()
		for _, secret := range f.secrets {
			if bytes.Contains(line, secret) {
				line = bytes.ReplaceAll(line, secret, []byte("******"))
			}
		}
		var out bytes.Buffer
		writeAnswer(&out, m.ID, line)
		f.record("out", s.id, out.Bytes())
		_, _ = w.Write(out.Bytes())
	})
}

// record keeps a message for the inspector.
func (f *floor) record(direction, session string, message []byte) {
	f.log.Lock()
	f.log.seq++
	f.log.ring[f.log.seq%uint64(len(f.log.ring))] = floorRecord{seq: f.log.seq, at: time.Now(), direction: direction, session: session, message: message}
	f.log.Unlock()
}
