package session

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/mark3labs/mcp-go/server"
)

// A EventStore is the hub's event store for Streamable HTTP resumability:
// it keeps each session's last events only. mcp-go's InMemoryEventStore
// keeps every event of a session until the session ends, and once a session
// has been sent any notification (a list_changed after the catalogue is
// built is enough) mcp-go answers each of its requests on an SSE stream
// whose events it stores: a session that calls a tool 100,000 times would
// hold 100,000 answers. A client resumes a stream it lost a moment ago; an
// event older than the last perSession (or than maxBytes of events) is
// forgotten, and resuming from it gets an unknown-event error, which the
// specification allows.
type EventStore struct {
	mu       sync.Mutex
	seq      uint64
	sessions map[string]*sessionEvents
}

const (
	eventsPerSession = 64
	eventBytes       = 1 << 20 // per session, the newest event is always kept
)

// sessionEvents is one session's ring of events, oldest first from start.
type sessionEvents struct {
	ring  [eventsPerSession]storedEvent
	start int
	n     int
	bytes int
}

type storedEvent struct {
	id     uint64
	stream string
	msg    json.RawMessage
}

var _ server.EventStore = (*EventStore)(nil)

func NewEventStore() *EventStore {
	return &EventStore{sessions: map[string]*sessionEvents{}}
}

// StoreEvent records message as the newest event of the session.
func (s *EventStore) StoreEvent(_ context.Context, sessionID, streamID string, message json.RawMessage) (string, error) {
	msg := append(json.RawMessage(nil), message...) // the caller may reuse its buffer
	s.mu.Lock()
	defer s.mu.Unlock()
	se := s.sessions[sessionID]
	if se == nil {
		se = &sessionEvents{}
		s.sessions[sessionID] = se
	}
	for se.n > 0 && (se.n == eventsPerSession || se.bytes+len(msg) > eventBytes) {
		old := &se.ring[se.start]
		se.bytes -= len(old.msg)
		*old = storedEvent{}
		se.start = (se.start + 1) % eventsPerSession
		se.n--
	}
	s.seq++
	se.ring[(se.start+se.n)%eventsPerSession] = storedEvent{id: s.seq, stream: streamID, msg: msg}
	se.n++
	se.bytes += len(msg)
	return strconv.FormatUint(s.seq, 10), nil
}

// ReplayEventsAfter sends the events of lastEventID's stream that came
// after it, oldest first.
func (s *EventStore) ReplayEventsAfter(_ context.Context, sessionID, lastEventID string, send func(eventID string, message json.RawMessage) error) (string, error) {
	last, err := strconv.ParseUint(lastEventID, 10, 64)
	if err != nil {
		return "", fmt.Errorf("%w: %s", server.ErrUnknownEventID, lastEventID)
	}
	s.mu.Lock()
	se := s.sessions[sessionID]
	stream, found := "", false
	var tail []storedEvent
	for i := 0; se != nil && i < se.n; i++ {
		e := se.ring[(se.start+i)%eventsPerSession]
		switch {
		case e.id == last:
			stream, found = e.stream, true
		case found && e.stream == stream:
			tail = append(tail, e)
		}
	}
	s.mu.Unlock()
	if !found {
		return "", fmt.Errorf("%w: %s", server.ErrUnknownEventID, lastEventID)
	}
	for _, e := range tail {
		if err := send(strconv.FormatUint(e.id, 10), e.msg); err != nil {
			return "", err
		}
	}
	return stream, nil
}

// PurgeSession forgets a session's events.
func (s *EventStore) PurgeSession(_ context.Context, sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, sessionID)
	return nil
}

// StreamOf returns the stream an event of the session was stored under,
// without replaying anything.
func (s *EventStore) StreamOf(sessionID, eventID string) (string, bool) {
	id, err := strconv.ParseUint(eventID, 10, 64)
	if err != nil {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	se := s.sessions[sessionID]
	for i := 0; se != nil && i < se.n; i++ {
		if e := se.ring[(se.start+i)%eventsPerSession]; e.id == id {
			return e.stream, true
		}
	}
	return "", false
}
