package upstream

import (
	"context"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// sessionClient returns the session-era client of s: its own for an
// upstream of the session era, else the session era's connection, opened
// on first need (hub/upstream/era, decision 0236).
func (u *Upstream) sessionClient(ctx context.Context, s *session) (*client.Client, error) {
	if s.modern == nil {
		return s.client, nil
	}
	return s.era.Client(ctx)
}

// sessionTransport returns the session-era transport of s, nil if none is
// open.
func (s *session) sessionTransport() transport.Interface {
	if s.modern == nil {
		return s.client.GetTransport()
	}
	return s.era.Transport()
}
