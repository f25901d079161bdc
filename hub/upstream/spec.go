package upstream

import "github.com/chronicle-dev/chronicle/engine/service"

// transportOf returns how to reach s; a service that names none is stdio.
func transportOf(s service.Service) string {
	if s.Transport == "" {
		return service.Stdio
	}
	return s.Transport
}
