package waitfor

import "testing"

// TestReceive: a value sent is the value received.
func TestReceive(t *testing.T) {
	ch := make(chan string, 1)
	ch <- "event"
	if got := Receive(t, ch, "the event"); got != "event" {
		t.Errorf("Receive = %q", got)
	}
}
