package session

import (
	"testing"
	"time"
)

// TestSessionCapChoice: the session ended for a new one is one whose
// client sent nothing since initialize before any other, else the one idle
// longest, never one with a request in flight, and never a session of
// HTTP+SSE or stdio (its client holds its stream); when every session is
// busy there is no choice.
func TestSessionCapChoice(t *testing.T) {
	s := NewRegistry()
	busy, idle, fresh := s.Generate(), s.Generate(), s.Generate()
	s.Get(busy).Touch()
	s.Get(busy).Begin([]byte("1"), "")
	s.Get(idle).Touch()
	s.live["sse-session"] = newSession("sse-session") // never used, not ours to end
	if got := s.Idlest(); got == nil || got.ID() != fresh {
		t.Fatalf("first choice: %v, want the session that sent nothing", got)
	}
	s.Remove(fresh)
	if got := s.Idlest(); got == nil || got.ID() != idle {
		t.Fatalf("then: %v, want the idle one, not the busy one", got)
	}
	s.Remove(idle)
	if got := s.Idlest(); got != nil {
		t.Fatalf("every session busy or not the hub's to end: %v, want none", got.ID())
	}
	later := time.Now().Add(time.Hour)
	if got := s.Expired(later, time.Minute, time.Minute); len(got) != 0 {
		t.Errorf("expired: %d sessions, want none (the busy one was used and has a request in flight; the SSE one is not ours)", len(got))
	}
}

// TestExpired: a session whose client sent nothing since initialize ends
// after the unused time, one used then idle after the idle time, unless its
// standalone stream carried a message meanwhile; never one with a request
// in flight.
func TestExpired(t *testing.T) {
	s := NewRegistry()
	unused, quiet, listening, busy := s.Generate(), s.Generate(), s.Generate(), s.Generate()
	for _, id := range []string{quiet, listening, busy} {
		s.Get(id).Touch()
	}
	s.Get(busy).Begin([]byte("1"), "a__t")
	now := time.Now()
	ids := func(at time.Time, unusedTTL, idleTTL time.Duration) map[string]bool {
		out := map[string]bool{}
		for _, cs := range s.Expired(at, unusedTTL, idleTTL) {
			out[cs.ID()] = true
		}
		return out
	}
	if got := ids(now, time.Hour, time.Hour); len(got) != 0 {
		t.Fatalf("at once: %v expired, want none", got)
	}
	if got := ids(now.Add(2*time.Second), time.Second, time.Hour); len(got) != 1 || !got[unused] {
		t.Fatalf("after the unused time: %v, want the unused session alone", got)
	}
	later := now.Add(time.Minute)
	s.Get(listening).mu.Lock()
	s.Get(listening).lastSeen = later // as Carried at that time
	s.Get(listening).mu.Unlock()
	got := ids(later.Add(time.Second), time.Hour, 30*time.Second)
	if len(got) != 2 || !got[unused] || !got[quiet] {
		t.Fatalf("after the idle time: %v, want the unused and the quiet session, not the one whose stream carried a message nor the busy one", got)
	}
	cs := s.Get(listening)
	cs.Carried()
	if cs.used != true || cs.lastSeen.Before(now) {
		t.Errorf("Carried: used %v, last seen %v", cs.used, cs.lastSeen)
	}
}

// TestOnCancel: a request the hub serves itself is stopped when the client
// cancels it, at once when the cancel came first, and only one in flight
// takes a stop.
func TestOnCancel(t *testing.T) {
	cs := newSession("s")
	stops := 0
	stop := func() { stops++ }
	if cs.OnCancel([]byte("1"), stop) {
		t.Fatal("OnCancel took a request that is not in flight")
	}
	cs.Begin([]byte("1"), "a__t")
	if !cs.OnCancel([]byte("1"), stop) || stops != 0 {
		t.Fatalf("OnCancel of a request in flight: stops %d", stops)
	}
	cs.Cancel([]byte("1"))
	if stops != 1 {
		t.Fatalf("after the cancel: stops %d, want 1", stops)
	}
	cs.Begin([]byte("2"), "a__t")
	cs.Cancel([]byte("2"))
	if !cs.OnCancel([]byte("2"), stop) || stops != 2 {
		t.Fatalf("OnCancel of a request already cancelled: stops %d, want 2", stops)
	}
	if !cs.Answered([]byte("2")) {
		t.Error("the cancelled request's answer is not dropped")
	}
}

// TestNeedsRequestStream: only a client that offered elicitation and has
// no standalone stream open needs a call's own stream for what the hub
// asks it during the call.
func TestNeedsRequestStream(t *testing.T) {
	cs := newSession("s")
	if cs.NeedsRequestStream() {
		t.Fatal("a client that offered nothing needs no request stream")
	}
	cs.OfferedElicitation()
	if !cs.NeedsRequestStream() {
		t.Fatal("a client that offered elicitation, with no standalone stream, needs the call's stream")
	}
	cs.StreamOpen()
	if cs.NeedsRequestStream() {
		t.Fatal("with its standalone stream open it needs no other")
	}
}
