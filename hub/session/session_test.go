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
