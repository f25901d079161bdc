package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/mark3labs/mcp-go/server"
)

func TestRecentEventsReplay(t *testing.T) {
	ctx := context.Background()
	s := NewEventStore()
	store := func(sid, stream, msg string) string {
		id, err := s.StoreEvent(ctx, sid, stream, json.RawMessage(msg))
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	replay := func(sid, after string) (string, []string, error) {
		var got []string
		stream, err := s.ReplayEventsAfter(ctx, sid, after, func(id string, m json.RawMessage) error {
			got = append(got, string(m))
			return nil
		})
		return stream, got, err
	}
	a1 := store("s1", "A", `1`)
	store("s1", "B", `2`)
	store("s1", "A", `3`)
	store("s2", "A", `4`)
	stream, got, err := replay("s1", a1)
	if err != nil || stream != "A" || !slices.Equal(got, []string{"3"}) {
		t.Fatalf("replay after %s = %q %v %v, want A [3]", a1, stream, got, err)
	}
	for _, bad := range []struct{ sid, id string }{{"s2", a1}, {"s1", "x"}, {"s3", a1}} {
		if _, _, err := replay(bad.sid, bad.id); !errors.Is(err, server.ErrUnknownEventID) {
			t.Errorf("replay %s after %s: %v, want unknown event", bad.sid, bad.id, err)
		}
	}
	if err := s.PurgeSession(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := replay("s1", a1); !errors.Is(err, server.ErrUnknownEventID) {
		t.Errorf("after purge: %v, want unknown event", err)
	}
}

// TestRecentEventsBounded checks that a session keeps its last events only:
// an event older than that cannot be resumed from, a recent one can.
func TestRecentEventsBounded(t *testing.T) {
	ctx := context.Background()
	s := NewEventStore()
	var ids []string
	for i := range 3 * eventsPerSession {
		id, _ := s.StoreEvent(ctx, "s", "A", json.RawMessage(strconv.Itoa(i)))
		ids = append(ids, id)
	}
	if _, err := s.ReplayEventsAfter(ctx, "s", ids[0], func(string, json.RawMessage) error { return nil }); !errors.Is(err, server.ErrUnknownEventID) {
		t.Errorf("oldest event: %v, want unknown event", err)
	}
	n := 0
	if _, err := s.ReplayEventsAfter(ctx, "s", ids[len(ids)-eventsPerSession], func(string, json.RawMessage) error { n++; return nil }); err != nil || n != eventsPerSession-1 {
		t.Errorf("oldest kept event: %d replayed, %v; want %d", n, err, eventsPerSession-1)
	}
	big := json.RawMessage(fmt.Sprintf("%q", make([]byte, eventBytes/2)))
	for range 3 {
		_, _ = s.StoreEvent(ctx, "s", "A", big)
	}
	if se := s.sessions["s"]; se.bytes > eventBytes && se.n > 1 {
		t.Errorf("%d events of %d bytes kept, over the bound of %d", se.n, se.bytes, eventBytes)
	}
}
