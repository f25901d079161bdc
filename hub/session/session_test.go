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
	if got := s.Unused(later, time.Minute); len(got) != 0 {
		t.Errorf("unused: %d sessions, want none (the busy one was used; the SSE one is not ours)", len(got))
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
