package upstream

import "github.com/chronicle-dev/chronicle/engine/service"

// transportOf returns how to reach s; a service that names none is stdio.
func transportOf(s service.Service) string {
	if s.Transport == "" {
		return service.Stdio
	}
	return s.Transport
}

// Polls reports whether the upstream may end a call's stream before its
// answer (SSE polling, SEP-1699, hub/upstream/poll): it is reached over
// Streamable HTTP.
func (u *Upstream) Polls() bool { return transportOf(u.spec) == service.HTTP }
