package upstream

import (
	"context"

	"github.com/mark3labs/mcp-go/client/transport"
)

// openSessionEra makes sure s has a session-era connection, opening one on
// first need for an upstream spoken to statelessly (hub/upstream/era,
// decision 0236); an error says the upstream refused it.
func (s *session) openSessionEra(ctx context.Context) error {
	if s.modern == nil {
		return nil
	}
	_, err := s.era.Client(ctx)
	return err
}

// sessionTransport returns the session-era transport of s, nil if none is
// open.
func (s *session) sessionTransport() transport.Interface {
	if s.modern == nil {
		return s.client.GetTransport()
	}
	return s.era.Transport()
}
