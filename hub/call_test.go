package hub

import (
	"errors"
	"fmt"
	"testing"

	"github.com/chronicle-dev/chronicle/hub/upstream/rpc"
)

// TestServiceErrorNamesTheServiceOnce: an upstream's error, already
// prefixed by the upstream package or not, names the service exactly once.
func TestServiceErrorNamesTheServiceOnce(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want string
	}{
		{errors.New("github: tools/call x: no answer within the 60s timeout"), "github: tools/call x: no answer within the 60s timeout"},
		{errors.New("connection refused"), "github: connection refused"},
		{fmt.Errorf("wrapped: %w", &rpc.RPCError{Code: -32602, Message: "unknown tool"}), "github: unknown tool (JSON-RPC error -32602)"},
	} {
		if got := serviceError("github", tt.err); got != tt.want {
			t.Errorf("serviceError(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
