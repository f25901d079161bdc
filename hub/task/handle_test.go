package task

import (
	"context"
	"errors"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/seal"
)

// TestOpenOnlyForItsCaller: a handle opens for the caller it was sealed
// for, in reach of its service; another session, another endpoint's
// stateless caller, a session-era caller for a stateless handle and a
// service out of reach are refused alike.
func TestOpenOnlyForItsCaller(t *testing.T) {
	reach := map[string]bool{"everything": true}
	r := &Router{Sealer: seal.Random(), Reaches: func(_ context.Context, s string) bool { return reach[s] }}
	ctx := context.Background()
	mine := Stateless("/mcp?root=")
	h := r.Seal(Handle{Service: "everything", Task: "up-1", Caller: mine})
	if got, err := r.Open(ctx, h, mine); err != nil || got.Task != "up-1" || got.Service != "everything" {
		t.Fatalf("Open for its caller: %+v, %v", got, err)
	}
	for name, caller := range map[string]string{
		"another endpoint":   Stateless("/mcp/service/everything?root="),
		"another project":    Stateless("/mcp?root=/work/other"),
		"a session":          Session("mcp-session-1"),
		"the endpoint's key": "/mcp?root=",
	} {
		if _, err := r.Open(ctx, h, caller); !errors.Is(err, ErrUnknown) {
			t.Errorf("%s: Open = %v, want ErrUnknown", name, err)
		}
	}
	reach["everything"] = false
	if _, err := r.Open(ctx, h, mine); !errors.Is(err, ErrUnknown) {
		t.Errorf("a service out of reach: Open = %v, want ErrUnknown", err)
	}
}
